/** Caches one async value for `ttlMs`; concurrent callers during a refresh share the same promise. */
export function ttlMemo<T>(ttlMs: number, load: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let value: { at: number; promise: Promise<T> } | null = null;
  return () => {
    const t = now();
    if (!value || t - value.at >= ttlMs) {
      const promise = load();
      value = { at: t, promise };
      // A failed load is not cached.
      promise.catch(() => {
        if (value?.promise === promise) value = null;
      });
    }
    return value.promise;
  };
}
