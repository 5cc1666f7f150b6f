import type pgModule from "pg";

export interface PostgresChangeListenerOptions {
  readonly url: string;
  readonly schema?: string;
  readonly connectMs: number;
  /** Told when the listening connection is lost (it reconnects; the caches serve nothing meanwhile). */
  readonly onConnectionError?: (err: Error) => void;
}

/** What a channel's notification empties. */
export interface Forgetful {
  changed(): void;
}

/**
 * One connection of its own that listens for the store's change notifications (migration 021: keys; 027: grades)
 * and empties the caches registered for each channel. A cache serves rows only while `listening()`: losing the
 * connection empties every cache and reconnects with a capped backoff; once LISTEN holds again they are emptied
 * once more (rows read meanwhile may predate a change whose notification was missed).
 */
export interface ChangeListener {
  /** Registers a cache for a channel; call before the first notification can matter (at the store's opening). */
  on(channel: string, cache: Forgetful): void;
  listening(): boolean;
  close(): Promise<void>;
}

export function postgresChangeListener(pg: typeof pgModule, options: PostgresChangeListenerOptions): ChangeListener {
  const channels = new Map<string, Forgetful[]>();
  const forgetAll = () => {
    for (const caches of channels.values()) for (const cache of caches) cache.changed();
  };
  let listening = false;
  let closed = false;
  let client: pgModule.Client | null = null;
  let retryMs = 100;
  let timer: NodeJS.Timeout | null = null;
  // The schema whose changes concern this store: the one its connections use (DATABASE_URL may set search_path).
  let schema: string | null = null;

  const lost = (err: Error | null) => {
    if (listening || client) forgetAll();
    listening = false;
    const c = client;
    client = null;
    c?.removeAllListeners("notification");
    c?.end().catch(() => {});
    if (err) options.onConnectionError?.(err);
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      connect();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 5_000);
  };

  const connect = () => {
    if (closed) return;
    const c = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: options.connectMs,
      keepAlive: true,
      // Names the schema, so an operator (or a test) can tell one deployment's listener from another's.
      fallback_application_name: `hcs-server change listener (${options.schema ?? "default schema"})`,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    client = c;
    c.on("error", (err) => {
      if (client === c) lost(err);
    });
    c.on("end", () => {
      if (client === c) lost(null);
    });
    c.on("notification", (msg) => {
      if (schema !== null && msg.payload !== schema) return;
      for (const cache of channels.get(msg.channel) ?? []) cache.changed();
    });
    c.connect()
      .then(() => c.query<{ s: string }>("select current_schema() as s"))
      .then(async (r) => {
        schema = r.rows[0]?.s ?? null;
        // Channel names are this code's constants, never input.
        for (const channel of channels.keys()) await c.query(`LISTEN ${channel}`);
      })
      .then(
        () => {
          if (client !== c || closed) return;
          forgetAll();
          listening = true;
          retryMs = 100;
        },
        (err: Error) => {
          if (client === c) lost(err);
        },
      );
  };
  // Connects on the next turn, once the store has registered its caches.
  setImmediate(connect);

  return {
    on(channel, cache) {
      const caches = channels.get(channel);
      if (caches) caches.push(cache);
      else channels.set(channel, [cache]);
    },
    listening: () => listening,
    async close() {
      closed = true;
      listening = false;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
