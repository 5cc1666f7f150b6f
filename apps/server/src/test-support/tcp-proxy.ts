import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP proxy on 127.0.0.1 in front of a loopback service, for outage tests: `blackhole()` stops every byte in
 * both directions and leaves new connections unanswered (as a partitioned network or a frozen host does — no
 * reset, no error, just silence); `restore()` delivers what was held back and lets traffic flow again.
 */
export interface TcpProxy {
  readonly port: number;
  blackhole(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Starts the proxy on `port` (default: a free one; a closed proxy's port may be taken again, to bring it back). */
export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket | null }>();
  let blackholed = false;

  const link = (pair: { client: Socket; upstream: Socket | null }) => {
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on("error", () => pair.client.destroy());
    upstream.on("close", () => pair.client.destroy());
    pair.client.pipe(upstream);
    upstream.pipe(pair.client);
  };
  const freeze = (pair: { client: Socket; upstream: Socket | null }) => {
    pair.client.unpipe();
    pair.client.pause();
    if (pair.upstream) {
      pair.upstream.unpipe();
      pair.upstream.pause();
    }
  };

  const server = createServer((client) => {
    const pair = { client, upstream: null as Socket | null };
    pairs.add(pair);
    client.on("error", () => pair.upstream?.destroy());
    client.on("close", () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (blackholed) client.pause();
    else link(pair);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    blackhole() {
      blackholed = true;
      for (const pair of pairs) freeze(pair);
    },
    restore() {
      blackholed = false;
      for (const pair of pairs) {
        if (!pair.upstream) {
          link(pair);
          continue;
        }
        pair.client.pipe(pair.upstream);
        pair.upstream.pipe(pair.client);
      }
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
