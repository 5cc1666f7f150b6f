import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from "node:net";
import type { SecureVersion } from "node:tls";
import { SamplePracticesError } from "./errors.js";

export interface SitePage {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly setCookies?: readonly string[];
  readonly html?: string;
  /** Answer with a 302 to this location instead of a page. */
  readonly redirect?: string;
}

/** How a sample practice's web host behaves: its TLS, headers, pages and any risky listeners. */
export interface SiteSpec {
  readonly tlsMinVersion: SecureVersion;
  readonly tlsMaxVersion: SecureVersion;
  /**
   * The server's OpenSSL cipher list (TLS 1.3 suites by their TLS_ names); absent: Node's default list, which like
   * most stock servers still accepts static-RSA and CBC suites in TLS 1.2.
   */
  readonly ciphers?: string;
  /** Sent on every HTTPS response (the site's security headers, Server banner…). */
  readonly headers: Readonly<Record<string, string>>;
  readonly pages: Readonly<Record<string, SitePage>>;
  /** Port 80: redirect to HTTPS, or serve the same pages in cleartext. */
  readonly plainHttp: "redirect" | "serve";
  /** Extra TCP ports that accept connections and never speak (an RDP-like or database-like listener). */
  readonly listeners: readonly number[];
}

export interface RunningSite {
  /** Connections accepted per port since start (how tests prove that a refused scan sent nothing). */
  readonly connections: ReadonlyMap<number, number>;
  /**
   * Serves `page` at `path` from now on, over the spec's pages (a test publishing a file, such as a proof of control
   * under /.well-known/); null takes it down again.
   */
  publish(path: string, page: SitePage | null): void;
  stop(): Promise<void>;
}

const NOT_FOUND = "<!doctype html><title>Not found</title><h1>Page not found</h1>";
// The sample's own TLS 1.0/1.1 must be negotiable: OpenSSL 3 disables them below security level 0.
const LEGACY_CIPHERS = "DEFAULT:@SECLEVEL=0";

function pageHandler(spec: SiteSpec, tls: boolean, published: ReadonlyMap<string, SitePage>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://sample").pathname;
    if (!tls && spec.plainHttp === "redirect") {
      res.writeHead(301, { location: `https://${req.headers.host ?? "localhost"}${req.url ?? "/"}` }).end();
      return;
    }
    const page = published.get(path) ?? spec.pages[path];
    const headers: Record<string, string | string[]> = { ...spec.headers, ...page?.headers };
    if (page?.setCookies?.length) headers["set-cookie"] = [...page.setCookies];
    if (page?.redirect) {
      res.writeHead(302, { ...headers, location: page.redirect }).end();
      return;
    }
    res.writeHead(page ? (page.status ?? 200) : 404, { "content-type": "text/html; charset=utf-8", ...headers });
    res.end(page?.html ?? NOT_FOUND);
  };
}

function listen(server: Server | TcpServer, address: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error) => reject(SamplePracticesError.fromBind(error, `${address}:${port}`)));
    server.listen(port, address, () => resolve());
  });
}

function countConnections(server: Server | TcpServer, port: number, counts: Map<number, number>, sockets: Set<Socket>) {
  // "connection" fires for every TCP connection, TLS or not, before any byte is read.
  server.on("connection", (socket: Socket) => {
    counts.set(port, (counts.get(port) ?? 0) + 1);
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  });
}

/** Starts a practice's HTTPS (443), HTTP (80) and extra listeners on its own loopback address. */
export async function startSite(
  spec: SiteSpec,
  address: string,
  certificate: { keyPem: string; certPem: string },
  ports: { https: number; http: number } = { https: 443, http: 80 },
): Promise<RunningSite> {
  const counts = new Map<number, number>();
  const sockets = new Set<Socket>();
  const published = new Map<string, SitePage>();
  const legacy = spec.tlsMinVersion === "TLSv1" || spec.tlsMinVersion === "TLSv1.1";
  const ciphers = spec.ciphers ?? (legacy ? LEGACY_CIPHERS : undefined);
  const https = createHttpsServer(
    {
      key: certificate.keyPem,
      cert: certificate.certPem,
      minVersion: spec.tlsMinVersion,
      maxVersion: spec.tlsMaxVersion,
      ...(ciphers ? { ciphers } : {}),
    },
    pageHandler(spec, true, published),
  );
  const http = createHttpServer(pageHandler(spec, false, published));
  const extra = spec.listeners.map((port) => ({ port, server: createTcpServer(() => {}) }));
  const all: { port: number; server: Server | TcpServer }[] = [
    { port: ports.https, server: https },
    { port: ports.http, server: http },
    ...extra,
  ];
  const started: (Server | TcpServer)[] = [];
  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(started.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  };
  try {
    for (const { port, server } of all) {
      countConnections(server, port, counts, sockets);
      await listen(server, address, port);
      started.push(server);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    connections: counts,
    publish: (path, page) => (page ? published.set(path, page) : published.delete(path)),
    stop,
  };
}
