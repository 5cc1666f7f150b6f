import { isIPv6 } from "node:net";
import { getSystemErrorName } from "node:util";
import type { ConnectResult } from "./host.js";

/**
 * A TCP connect probe on libuv's TCP handle directly, without the stream machinery of net.Socket.
 *
 * Why: a port scan opens tens of thousands of connections that carry no data; net.Socket's per-connection cost
 * (a Duplex stream, an Error with a stack for every refusal) made our scan three times slower than nmap's connect
 * scan, while the handle alone matches it (measured in bench/port-scan). `process.binding("tcp_wrap")` is on
 * Node's compatibility allow-list (Node 20 to 24); when it is missing or changes shape, `createRawConnect`
 * answers null and the caller keeps the net.Socket probe, which gives the same states.
 */
export type ConnectFn = (host: string, port: number, timeoutMs: number, signal?: AbortSignal) => Promise<ConnectResult>;

interface TcpHandle {
  connect(req: ConnectRequest, address: string, port: number): number;
  connect6(req: ConnectRequest, address: string, port: number): number;
  close(): void;
}
interface ConnectRequest {
  oncomplete: (status: number) => void;
  address?: string;
  port?: number;
}
interface TcpWrapBinding {
  TCP: new (type: number) => TcpHandle;
  TCPConnectWrap: new () => ConnectRequest;
  constants: { SOCKET: number };
}

const LOCAL_FAILURES = new Set(["EMFILE", "ENFILE", "EADDRNOTAVAIL", "ENOBUFS", "EAGAIN", "EADDRINUSE"]);
const CLOSED = new Set(["ECONNREFUSED", "ECONNRESET"]);

export function createRawConnect(): ConnectFn | null {
  const binding = loadBinding();
  if (!binding) return null;
  const { TCP, TCPConnectWrap, constants } = binding;
  return (host, port, timeoutMs, signal) => {
    if (signal?.aborted) return Promise.resolve({ state: "filtered", rttMs: 0 });
    return new Promise((resolve) => {
      const started = performance.now();
      const handle = new TCP(constants.SOCKET);
      let settled = false;
      const finish = (result: ConnectResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        handle.close();
        resolve(result);
      };
      const onAbort = () => finish({ state: "filtered", rttMs: performance.now() - started });
      const timer = setTimeout(onAbort, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      const req = new TCPConnectWrap();
      req.address = host;
      req.port = port;
      req.oncomplete = (status) => finish(classify(status, performance.now() - started));
      const err = isIPv6(host) ? handle.connect6(req, host, port) : handle.connect(req, host, port);
      if (err !== 0) finish(classify(err, performance.now() - started));
    });
  };
}

function classify(status: number, rttMs: number): ConnectResult {
  if (status === 0) return { state: "open", rttMs };
  const code = safeErrorName(status);
  if (CLOSED.has(code)) return { state: "closed", rttMs };
  if (LOCAL_FAILURES.has(code)) return { state: "filtered", rttMs, localFailure: true };
  return { state: "filtered", rttMs };
}

function safeErrorName(status: number): string {
  try {
    return getSystemErrorName(status);
  } catch {
    return "";
  }
}

function loadBinding(): TcpWrapBinding | null {
  try {
    const binding = (process as unknown as { binding(name: string): unknown }).binding("tcp_wrap") as TcpWrapBinding;
    const probe = new binding.TCP(binding.constants.SOCKET);
    const usable = typeof probe.connect === "function" && typeof probe.connect6 === "function";
    probe.close();
    return usable && typeof binding.TCPConnectWrap === "function" ? binding : null;
  } catch {
    return null;
  }
}
