import { spawn } from "node:child_process";
import { connect, createServer, type Server, type Socket } from "node:net";

/** A listener that accepts and drops connections: an open port. */
export async function openPort(host: string, port = 0): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === "object" && address ? address.port : 0 };
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

const BLACKHOLE_SOURCE = String.raw`
const { createServer } = require("node:net");
const server = createServer();
server.listen({ port: 0, host: process.argv[1], backlog: 1 }, () => {
  process.stdout.write(String(server.address().port) + "\n", () => {
    // Never back to the event loop: nothing is accepted, the kernel's accept queue fills, later SYNs are dropped.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000);
  });
});`;

/**
 * A filtered port on loopback without touching the firewall: a listener (in a child process that never accepts)
 * whose accept queue is full, so the kernel drops further SYNs and a connect stays unanswered (its first SYN
 * retransmission is 1 s away). Probes with shorter timeouts see it as filtered.
 */
export async function blackhole(host: string): Promise<{ port: number; close(): void }> {
  const child = spawn(process.execPath, ["-e", BLACKHOLE_SOURCE, host], { stdio: ["ignore", "pipe", "ignore"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (d: Buffer) => resolve(Number(String(d).trim())));
    child.once("exit", (code) => reject(new Error(`blackhole listener exited (${code})`)));
  });
  // Fill the accept queue (backlog 1 holds two completed connections).
  const fillers: Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const socket = connect(port, host);
    socket.on("error", () => undefined);
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    fillers.push(socket);
  }
  return {
    port,
    close: () => {
      for (const s of fillers) s.destroy();
      child.kill("SIGKILL");
    },
  };
}

/** Descriptors this process holds (Linux), or null elsewhere. */
export async function openDescriptors(): Promise<number | null> {
  if (process.platform !== "linux") return null;
  const { readdir } = await import("node:fs/promises");
  return (await readdir("/proc/self/fd")).length;
}
