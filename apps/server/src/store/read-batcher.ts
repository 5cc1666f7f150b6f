/**
 * The read-side twin of the group commit: reads of one kind asked for during one event-loop turn are answered by
 * one query for all their keys (each key once), instead of one query each. A 50-entry JSON-RPC batch of grade
 * lookups reads its 50 grades with one statement; concurrent single lookups share one too. Each caller gets the
 * value for its key, or the error of the query that should have read it.
 */
export class ReadBatcher<K, V> {
  private waiting = new Map<K, { resolve: (value: V) => void; reject: (error: unknown) => void }[]>();
  private scheduled = false;

  /**
   * @param load reads the values of the keys (at most `maxKeys` at a time); a key it leaves out gets `missing`.
   * @param missing the value of a key that `load` did not return.
   */
  constructor(
    private readonly load: (keys: readonly K[]) => Promise<Map<K, V>>,
    private readonly missing: V,
    private readonly maxKeys = 256,
  ) {}

  get(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const list = this.waiting.get(key);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        // After the turn's I/O callbacks (every request that arrived with this one has asked by then).
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = new Map();
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += this.maxKeys) {
      const chunk = keys.slice(i, i + this.maxKeys);
      // A load that throws instead of rejecting fails its callers the same way.
      new Promise<Map<K, V>>((resolve) => resolve(this.load(chunk))).then(
        (values) => {
          for (const key of chunk) {
            const value = values.has(key) ? values.get(key)! : this.missing;
            for (const w of batch.get(key)!) w.resolve(value);
          }
        },
        (error: unknown) => {
          for (const key of chunk) for (const w of batch.get(key)!) w.reject(error);
        },
      );
    }
  }
}
