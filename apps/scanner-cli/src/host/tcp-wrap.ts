import { getSystemErrorMap } from "node:util";
import type { ConnectResult } from "./host.js";

/**
 * libuv's TCP handle as Node exposes it to its own net module (`process.binding("tcp_wrap")`), used without the
 * stream machinery of net.Socket.
 *
 * Why: a port scan opens tens of thousands of connections that carry no data; net.Socket's per-connection cost
 * (a Duplex stream, an Error with a stack for every refusal) made our scan three times slower than nmap's connect
 * scan (measured in bench/port-scan). `process.binding("tcp_wrap")` is on Node's compatibility allow-list (Node 20
 * to 24). This file is the only place that touches it: when it is missing, throws or changes shape,
 * {@link loadTcpWrap} answers null and callers keep the net.Socket probe (host/net-connect.ts), which gives the
 * same states.
 */
export interface TcpHandle {
  connect(req: TcpConnectRequest, address: string, port: number): number;
  connect6(req: TcpConnectRequest, address: string, port: number): number;
  close(): void;
}
export interface TcpConnectRequest {
  /** Called by libuv with the request as `this`. */
  oncomplete(status: number): void;
}
export interface TcpWrapBinding {
  TCP: new (type: number) => TcpHandle;
  TCPConnectWrap: new () => TcpConnectRequest;
  constants: { SOCKET: number };
}

/** The part of `process` the adapter reads: Node's legacy binding loader and the deprecation switch. */
export interface BindingSource {
  binding?: (name: string) => unknown;
  noDeprecation?: boolean;
}

/**
 * libuv's TCP handle, or null where it is not usable (then probes use net.Socket).
 *
 * process.binding() is deprecated (DEP0111): silent by default on Node 20–24, a warning on the user's terminal
 * under `--pending-deprecation`, an exception under `--throw-deprecation` too. Deprecation warnings are switched
 * off for this one call (emitWarning reads `process.noDeprecation` synchronously), so a scan never prints one.
 */
export function loadTcpWrap(source: BindingSource = process as BindingSource): TcpWrapBinding | null {
  const before = source.noDeprecation;
  try {
    if (typeof source.binding !== "function") return null;
    source.noDeprecation = true;
    const binding = source.binding("tcp_wrap") as Partial<TcpWrapBinding> | undefined;
    if (
      typeof binding?.TCP !== "function" ||
      typeof binding.TCPConnectWrap !== "function" ||
      typeof binding.constants?.SOCKET !== "number"
    )
      return null;
    const probe = new binding.TCP(binding.constants.SOCKET);
    const usable = typeof probe.connect === "function" && typeof probe.connect6 === "function";
    probe.close();
    return usable ? (binding as TcpWrapBinding) : null;
  } catch {
    return null;
  } finally {
    source.noDeprecation = before;
  }
}

/**
 * What a connect attempt came to, as a small integer: cheap to compare, and what the helper process sends back
 * (host/probe-helper/).
 */
export const Outcome = { open: 0, closed: 1, filtered: 2, localFailure: 3 } as const;
export type OutcomeCode = (typeof Outcome)[keyof typeof Outcome];

/** Errors that say nothing about the target: this machine ran out of descriptors, buffers or ephemeral ports. */
export const LOCAL_FAILURE_ERRORS: readonly string[] = [
  "EMFILE",
  "ENFILE",
  "EADDRNOTAVAIL",
  "ENOBUFS",
  "EAGAIN",
  "EADDRINUSE",
];
/** A reset or refusal proves a host answered: the port is closed, not filtered (as nmap reads it). */
export const CLOSED_ERRORS: readonly string[] = ["ECONNREFUSED", "ECONNRESET"];

/**
 * libuv status codes (negative, and platform-specific: -111 is ECONNREFUSED on Linux, -4078 on Windows) that mean
 * closed or a local failure, looked up once by name in Node's own error table instead of naming every status.
 */
export interface StatusCodes {
  readonly closed: readonly number[];
  readonly localFailure: readonly number[];
  /** ECONNREFUSED: the answer after which a socket can be connected again (see {@link SOCKET_REUSE}). */
  readonly refused: number | null;
  /** ECONNABORTED: what the first connect() on such a socket answers, having reset it. */
  readonly aborted: number | null;
}

export function statusCodes(): StatusCodes {
  const closed: number[] = [];
  const localFailure: number[] = [];
  let refused: number | null = null;
  let aborted: number | null = null;
  for (const [status, [name]] of getSystemErrorMap()) {
    if (CLOSED_ERRORS.includes(name)) closed.push(status);
    else if (LOCAL_FAILURE_ERRORS.includes(name)) localFailure.push(status);
    if (name === "ECONNREFUSED") refused = status;
    if (name === "ECONNABORTED") aborted = status;
  }
  return { closed, localFailure, refused, aborted };
}

/**
 * Linux lets a TCP socket whose connect was refused connect again: the first connect() answers ECONNABORTED and
 * puts the socket back to unconnected, the second starts a new handshake from a new ephemeral port. A refused
 * probe's socket can therefore serve the next probe, which saves socket(), close() and Node's handle set-up and
 * tear-down: about a third of a closed port's cost. libuv passes both calls straight through (uv_tcp_connect on a
 * handle whose socket exists). Elsewhere (BSD, macOS, Windows) a failed socket is not connectable again, so every
 * probe gets a fresh handle; and wherever the first call answers anything else, reuse is switched off for good.
 */
export const SOCKET_REUSE = process.platform === "linux";

/** How a connect was started: on which handle, libuv's immediate status, and what it says about socket reuse. */
export interface ConnectStart {
  readonly handle: TcpHandle;
  /** 0: under way (the answer comes to `oncomplete`); else the probe's answer at once. */
  readonly status: number;
  /** A kept refused socket was connected again. */
  readonly reused: boolean;
  /** A kept socket refused to connect again where a fresh one could: this system does not reuse, stop keeping any. */
  readonly reuseBroken: boolean;
}

/**
 * Starts one connect probe (the scanner's engine and the probe helper alike): on a refused socket kept in `spares`
 * when there is one (SOCKET_REUSE), else on a fresh handle. `aborted`: ECONNABORTED's status, what the first
 * connect() on a refused socket answers while resetting it.
 */
export function startConnect(
  tcp: TcpWrapBinding,
  spares: TcpHandle[] | null,
  req: TcpConnectRequest,
  host: string,
  port: number,
  aborted: number | null,
): ConnectStart {
  const v6 = host.includes(":");
  const spare = spares?.pop();
  let triedSpare = false;
  if (spare !== undefined) {
    // The first connect() resets the refused socket (ECONNABORTED); the second is the probe, whose own errors are
    // answers as on a fresh socket.
    const first = connectOn(spare, v6, req, host, port);
    if (first === aborted || first === 0) {
      const status = first === 0 ? 0 : connectOn(spare, v6, req, host, port);
      return { handle: spare, status, reused: true, reuseBroken: false };
    }
    // Either the address is unusable (not an IP literal: a fresh socket says the same) or this system does not
    // connect a refused socket again; the fresh socket below tells which.
    spare.close();
    triedSpare = true;
  }
  const handle = new tcp.TCP(tcp.constants.SOCKET);
  const status = connectOn(handle, v6, req, host, port);
  return { handle, status, reused: false, reuseBroken: triedSpare && status === 0 };
}

function connectOn(handle: TcpHandle, v6: boolean, req: TcpConnectRequest, host: string, port: number): number {
  return v6 ? handle.connect6(req, host, port) : handle.connect(req, host, port);
}

/** Maps a libuv status to an outcome: 0 is a completed handshake, anything unknown is `filtered`. */
export function statusClassifier(codes: StatusCodes = statusCodes()): (status: number) => OutcomeCode {
  const closed = new Set(codes.closed);
  const local = new Set(codes.localFailure);
  return (status) => {
    if (status === 0) return Outcome.open;
    if (closed.has(status)) return Outcome.closed;
    if (local.has(status)) return Outcome.localFailure;
    return Outcome.filtered;
  };
}

export function connectResult(code: number, rttMs: number): ConnectResult {
  switch (code) {
    case Outcome.open:
      return { state: "open", rttMs };
    case Outcome.closed:
      return { state: "closed", rttMs };
    case Outcome.localFailure:
      return { state: "filtered", rttMs, localFailure: true };
    default:
      return { state: "filtered", rttMs };
  }
}
