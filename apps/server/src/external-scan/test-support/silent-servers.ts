import { createSocket } from "node:dgram";
import { createServer, type Socket } from "node:net";

export interface SilentServer {
  readonly host: string;
  readonly port: number;
  /** Datagrams or connections received: proof that traffic arrived here (and nowhere else). */
  received(): number;
  stop(): Promise<void>;
}

/** A DNS server that reads every query and never answers, over UDP and TCP on one port. */
export async function startSilentDnsServer(host = "127.0.0.1"): Promise<SilentServer> {
  // DNS answers on one port number over UDP and TCP: the UDP port is chosen by the system, and that number may be
  // taken over TCP by another test's connection (an ephemeral port), so a taken pair is given up and another tried.
  for (let attempt = 1; ; attempt++) {
    let received = 0;
    const udp = createSocket("udp4");
    udp.on("message", () => {
      received++;
    });
    await new Promise<void>((resolve, reject) => {
      udp.once("error", reject);
      udp.bind(0, host, () => resolve());
    });
    const port = udp.address().port;
    let tcp: SilentServer;
    try {
      tcp = await startSilentTcpListener(host, port);
    } catch (err) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if ((err as NodeJS.ErrnoException).code === "EADDRINUSE" && attempt < 20) continue;
      throw err;
    }
    return {
      host,
      port,
      received: () => received + tcp.received(),
      stop: async () => {
        await new Promise<void>((resolve) => udp.close(() => resolve()));
        await tcp.stop();
      },
    };
  }
}

/** A TCP listener that accepts connections and never sends a byte (a hung web server, an RDP-like port). */
export async function startSilentTcpListener(host: string, port: number): Promise<SilentServer> {
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    received++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    host,
    port: typeof address === "object" && address ? address.port : port,
    received: () => received,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
