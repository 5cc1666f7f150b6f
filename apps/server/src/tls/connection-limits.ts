import type { Server as HttpServer } from "node:http";
import type { Server as HttpsServer } from "node:https";
import type { Socket } from "node:net";
import { normalizeAddress, type TrustProxy } from "../http/client-address.js";
import { anonymousBucketOf } from "../net/address-bucket.js";

/**
 * How long a connection may hold the server without doing its part, and how many one client may hold
 * (docs/operations.md, "Connections"; docs/security.md). Each has an environment variable (config.ts).
 */
export interface ConnectionLimits {
  /** From accepting the TCP connection to the end of the TLS handshake (HCS_TLS_HANDSHAKE_TIMEOUT_MS). */
  readonly handshakeTimeoutMs: number;
  /**
   * For a request's head (request line and headers) to arrive complete, counted from the end of the handshake for a
   * connection's first request and from the first byte of each later one (HCS_HEADERS_TIMEOUT_MS).
   */
  readonly headersTimeoutMs: number;
  /** A connection with no request in progress is closed after this long (HCS_KEEP_ALIVE_TIMEOUT_MS). */
  readonly keepAliveTimeoutMs: number;
  /**
   * Connections open at once from one client address — an IPv6 client's /64 network — beyond which a new one is
   * closed at once, before its handshake (HCS_MAX_CONNECTIONS_PER_ADDRESS). Trusted proxies are not counted.
   */
  readonly maxPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  handshakeTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxPerAddress: 128,
};

/** The whole of a request, head and body (a 10 MiB upload on a slow link): Node's own limit, not configurable here. */
export const REQUEST_TIMEOUT_MS = 120_000;

/**
 * How often Node checks every connection against the header and request timeouts: its default, 30 s, let a
 * connection that never sent a request live 30 s past a 5 s timeout.
 */
const TIMEOUT_CHECK_MS = 1_000;

/** Options of `https.createServer` (and `http.createServer`: `handshakeTimeout` is ignored there) for these limits. */
export function serverTimeoutOptions(limits: ConnectionLimits) {
  return {
    handshakeTimeout: limits.handshakeTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: Math.max(REQUEST_TIMEOUT_MS, limits.headersTimeoutMs),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, limits.headersTimeoutMs),
  };
}

/** Why a connection was refused or closed early, for hcs_connections_refused_total{reason}. */
export type ConnectionRefusal = "per_address_limit" | "tls_handshake_timeout";

/**
 * Applies the limits to a listener: the idle keep-alive timeout, and the per-address cap — counted on the TCP
 * connection, before TLS, so a refused one costs no handshake. A peer that is a trusted proxy (HCS_TRUST_PROXY: a
 * listed address, or every peer with a hop count, since then only proxies connect) carries many clients and is not
 * capped; cap at the proxy instead.
 */
export function limitConnections(
  server: HttpServer | HttpsServer,
  limits: ConnectionLimits,
  trust: TrustProxy,
  onRefused: (reason: ConnectionRefusal) => void = () => {},
): void {
  // Node 20 takes keepAliveTimeout as a property only (the creation option came later).
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const peer = normalizeAddress(socket.remoteAddress ?? "");
    if (peer === null || isTrustedPeer(trust, peer)) return;
    const bucket = anonymousBucketOf(peer);
    const count = (open.get(bucket) ?? 0) + 1;
    if (count > limits.maxPerAddress) {
      onRefused("per_address_limit");
      socket.destroy();
      return;
    }
    open.set(bucket, count);
    socket.once("close", () => {
      const left = (open.get(bucket) ?? 1) - 1;
      if (left <= 0) open.delete(bucket);
      else open.set(bucket, left);
    });
  });
  server.on("tlsClientError", (err: NodeJS.ErrnoException) => {
    if (err.code === "ERR_TLS_HANDSHAKE_TIMEOUT") onRefused("tls_handshake_timeout");
  });
}

function isTrustedPeer(trust: TrustProxy, address: string): boolean {
  if (trust.kind === "hops") return true;
  return trust.kind === "addresses" && trust.proxies.check(address, address.includes(":") ? "ipv6" : "ipv4");
}
