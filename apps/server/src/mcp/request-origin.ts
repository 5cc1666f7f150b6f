import { ServiceError } from "../errors.js";
import { certificateHosts } from "../tls/tls-material.js";

/** Where requests to /mcp may come from: the server's public origin, and the host names it answers to. */
export interface AllowedSources {
  readonly origin: string;
  readonly hostnames: ReadonlySet<string>;
}

/**
 * The names the server answers to are the ones its certificate covers: the public URL's host, the bind address
 * (unless it is a wildcard) and the loopback forms. A browser page is same-origin with the server only at the
 * public URL.
 */
export function allowedSources(publicUrl: string, bindHost: string): AllowedSources {
  return {
    origin: new URL(publicUrl).origin,
    hostnames: new Set(certificateHosts(bindHost, publicUrl).map((h) => h.toLowerCase())),
  };
}

/** A Host header's name without port and IPv6 brackets, lower-cased; null when it is not a host. */
function hostnameOf(host: string): string | null {
  try {
    return new URL(`https://${host}`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return null;
  }
}

/** An Origin header as URL serializes origins (lower-case scheme and host, default port left out); as is if opaque. */
function normalizedOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}

/**
 * DNS-rebinding protection, as the MCP transport security guidance asks of Streamable HTTP servers: a web page on
 * another origin may reach this server through a name it controls that resolves to the server's address; its
 * requests carry that page's Origin and that name in Host. So a present Origin must be the server's own, and Host
 * one of its names. Clients that are not browsers (assistants, SDKs, CLIs) send no Origin and pass.
 */
export function foreignSourceError(
  allowed: AllowedSources,
  origin: string | undefined,
  host: string | undefined,
): ServiceError | null {
  if (origin !== undefined && normalizedOrigin(origin) !== allowed.origin) {
    return new ServiceError("forbidden", "requests from web pages of other origins are refused", {
      origin: origin.slice(0, 200),
    });
  }
  const name = host ? hostnameOf(host) : null;
  if (name === null || !allowed.hostnames.has(name)) {
    return new ServiceError("forbidden", "this server does not answer to that host name", {
      host: (host ?? "").slice(0, 200),
    });
  }
  return null;
}
