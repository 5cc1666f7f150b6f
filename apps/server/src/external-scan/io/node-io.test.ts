import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startZoneDnsServer, type ZoneDnsServer } from "../../sample-practices/dns-server.js";
import { createCertificateAuthority, issueServerCertificate } from "../../tls/certificates.js";
import { type SilentServer, startSilentDnsServer, startSilentTcpListener } from "../test-support/silent-servers.js";
import { createNodeDnsIO } from "./dns.js";
import { createNodeHttpClient } from "./http-client.js";
import { createNodeTcpConnect } from "./tcp-connect.js";
import { createNodeTlsProbe } from "./tls-probe.js";

// Everything here talks to servers this file starts on 127.0.0.1 only.
const HOST = "127.0.0.1";
const signal = new AbortController().signal;
const port = (server: Server) => (server.address() as AddressInfo).port;
const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, HOST, () => resolve()));
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });

describe("DNS through node:dns pointed at a local server", () => {
  let dns: ZoneDnsServer;
  let silent: SilentServer;
  const longKey = "MIIB".padEnd(400, "A");
  beforeAll(async () => {
    dns = await startZoneDnsServer({
      origins: ["io.test"],
      records: [
        { name: "io.test", type: "TXT", text: "v=spf1 -all" },
        { name: "io.test", type: "MX", exchange: "mx.io.test", priority: 10 },
        { name: "io.test", type: "A", address: "127.0.30.1" },
        { name: "io.test", type: "AAAA", address: "::1" },
        { name: "k1._domainkey.io.test", type: "TXT", text: `v=DKIM1; p=${longKey}` },
      ],
    });
    silent = await startSilentDnsServer();
  });
  afterAll(async () => {
    await dns.stop();
    await silent.stop();
  });
  const io = () => createNodeDnsIO({ servers: [{ host: dns.host, port: dns.port }], timeoutMs: 2_000 });

  it("reads TXT, MX and A+AAAA records, IPv4 first", async () => {
    expect(await io().txt("io.test", signal)).toEqual({ ok: true, records: ["v=spf1 -all"] });
    expect(await io().mx("io.test", signal)).toEqual({ ok: true, records: [{ exchange: "mx.io.test", priority: 10 }] });
    expect(await io().addresses("io.test", signal)).toEqual({ ok: true, records: ["127.0.30.1", "::1"] });
  });

  it("joins a long TXT record's 255-byte strings back together", async () => {
    expect(await io().txt("k1._domainkey.io.test", signal)).toEqual({ ok: true, records: [`v=DKIM1; p=${longKey}`] });
  });

  it("tells NXDOMAIN from NODATA, and a refused zone from both", async () => {
    expect(await io().txt("missing.io.test", signal)).toMatchObject({ ok: false, code: "nxdomain" });
    expect(await io().txt("_domainkey.io.test", signal)).toMatchObject({ ok: false, code: "nodata" });
    expect(await io().txt("elsewhere.test", signal)).toMatchObject({ ok: false, code: "server_refused" });
  });

  it("asks only the configured server", async () => {
    const before = dns.queries.length;
    await io().txt("io.test", signal);
    expect(dns.queries.slice(before)).toEqual([{ name: "io.test", type: "TXT" }]);
  });

  it("gives up on a server that never answers within its time limit", async () => {
    const started = performance.now();
    const answer = await createNodeDnsIO({ servers: [{ host: silent.host, port: silent.port }], timeoutMs: 400 }).txt(
      "io.test",
      signal,
    );
    expect(answer).toMatchObject({ ok: false, code: "timeout" });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(silent.received()).toBeGreaterThan(0);
  });

  it("keeps at most maxConcurrent queries in flight, and queued ones give up when the signal aborts", async () => {
    const before = silent.received();
    const io = createNodeDnsIO({
      servers: [{ host: silent.host, port: silent.port }],
      timeoutMs: 5_000,
      maxConcurrent: 2,
    });
    const controller = new AbortController();
    const pending = Promise.all(Array.from({ length: 5 }, (_, i) => io.txt(`q${i}.io.test`, controller.signal)));
    await new Promise((r) => setTimeout(r, 300));
    // Two queries reached the server; three wait for a slot (c-ares's first retry comes only after 2.5 s).
    expect(silent.received() - before).toBe(2);
    controller.abort();
    const answers = await pending;
    expect(answers.map((a) => !a.ok && a.code)).toEqual(["timeout", "timeout", "timeout", "timeout", "timeout"]);
    expect(silent.received() - before).toBe(2);
  });

  it("stops at once when the scan's signal aborts", async () => {
    const controller = new AbortController();
    const pending = createNodeDnsIO({ servers: [{ host: silent.host, port: silent.port }], timeoutMs: 10_000 }).txt(
      "io.test",
      controller.signal,
    );
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    expect(await pending).toMatchObject({ ok: false, code: "timeout" });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("TLS probe and HTTP client against local servers", () => {
  const ca = createCertificateAuthority("IO test CA");
  const other = createCertificateAuthority("Untrusted CA");
  const cert = issueServerCertificate(ca, ["www.io.test"]);
  let modern: Server;
  let legacy: Server;
  let plain: Server;
  let hung: SilentServer;
  beforeAll(async () => {
    modern = createHttpsServer({ key: cert.keyPem, cert: cert.certPem, minVersion: "TLSv1.2" }, (req, res) => {
      if (req.url === "/gzip") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip" });
        res.end(gzipSync("<p>compressed café</p>"));
      } else if (req.url === "/big") {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("x".repeat(50_000));
      } else if (req.url === "/image") {
        res.writeHead(200, { "content-type": "image/png" });
        res.end(Buffer.alloc(2048));
      } else {
        res.writeHead(302, {
          location: "/next",
          "set-cookie": ["a=1; Secure", "b=2; HttpOnly"],
          "x-seen-host": req.headers.host ?? "",
        });
        res.end();
      }
    });
    legacy = createHttpsServer({
      key: cert.keyPem,
      cert: cert.certPem,
      minVersion: "TLSv1",
      maxVersion: "TLSv1.1",
      ciphers: "DEFAULT:@SECLEVEL=0",
    });
    plain = createHttpServer((req, res) => res.end(`host=${req.headers.host}`));
    await Promise.all([listen(modern), listen(legacy), listen(plain)]);
    hung = await startSilentTcpListener(HOST, 0);
  });
  afterAll(async () => {
    await Promise.all([close(modern), close(legacy), close(plain), hung.stop()]);
  });

  it("learns which versions a server accepts, one handshake per version", async () => {
    const probe = createNodeTlsProbe({ trustedCaPem: [ca.certPem], timeoutMs: 2_000 });
    const versions = async (server: Server) =>
      Promise.all(
        (["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"] as const).map(async (version) => {
          const o = await probe.handshake({
            address: HOST,
            port: port(server),
            servername: "www.io.test",
            version,
            signal,
          });
          return o.ok ? version : o.code;
        }),
      );
    expect(await versions(modern)).toEqual(["handshake_failed", "handshake_failed", "TLSv1.2", "TLSv1.3"]);
    expect(await versions(legacy)).toEqual(["TLSv1", "TLSv1.1", "handshake_failed", "handshake_failed"]);
  });

  it("summarizes the certificate and verifies it against the extra CA", async () => {
    const trusted = await createNodeTlsProbe({ trustedCaPem: [ca.certPem], timeoutMs: 2_000 }).handshake({
      address: HOST,
      port: port(modern),
      servername: "www.io.test",
      version: "TLSv1.3",
      signal,
    });
    expect(trusted).toMatchObject({ ok: true, version: "TLSv1.3", authorized: true, authorization_error: null });
    if (!trusted.ok) return;
    expect(trusted.chain[0]).toMatchObject({
      subject_cn: "www.io.test",
      subject_alt_names: ["DNS:www.io.test"],
      issuer_cn: "IO test CA",
      key_type: "rsa",
      key_bits: 2048,
      self_signed: false,
    });
    const untrusted = await createNodeTlsProbe({ trustedCaPem: [other.certPem], timeoutMs: 2_000 }).handshake({
      address: HOST,
      port: port(modern),
      servername: "www.io.test",
      version: "TLSv1.3",
      signal,
    });
    expect(untrusted).toMatchObject({ ok: true, authorized: false });
  });

  it("reports a closed port and a server that never answers the handshake", async () => {
    const probe = createNodeTlsProbe({ timeoutMs: 300 });
    const closedPort = port(plain);
    await close(plain);
    expect(
      await probe.handshake({ address: HOST, port: closedPort, servername: "www.io.test", version: "TLSv1.3", signal }),
    ).toMatchObject({
      ok: false,
      code: "connection_refused",
    });
    await listen(plain);
    expect(
      await probe.handshake({ address: HOST, port: hung.port, servername: "www.io.test", version: "TLSv1.3", signal }),
    ).toEqual({
      ok: false,
      code: "timeout",
      detail: "no handshake answer",
    });
  });

  const client = (maxBodyBytes = 10_000, timeoutMs = 2_000) =>
    createNodeHttpClient({ timeoutMs, maxBodyBytes, userAgent: "hcs-test" });

  it("records status, headers and every Set-Cookie, sends the URL's host, and does not follow redirects", async () => {
    const outcome = await client().get({ url: `https://www.io.test:${port(modern)}/`, address: HOST, signal });
    expect(outcome).toMatchObject({
      ok: true,
      status: 302,
      set_cookies: ["a=1; Secure", "b=2; HttpOnly"],
      headers: { location: "/next", "x-seen-host": `www.io.test:${port(modern)}` },
    });
  });

  it("decodes gzip bodies, cuts large ones and skips binary ones", async () => {
    const url = (path: string) => `https://www.io.test:${port(modern)}${path}`;
    expect(await client().get({ url: url("/gzip"), address: HOST, signal })).toMatchObject({
      body: "<p>compressed café</p>",
      truncated: false,
    });
    const big = await client(1_024).get({ url: url("/big"), address: HOST, signal });
    expect(big.ok && [big.body.length, big.truncated]).toEqual([1_024, true]);
    expect(await client().get({ url: url("/image"), address: HOST, signal })).toMatchObject({ ok: true, body: "" });
  });

  it("speaks plain HTTP too", async () => {
    expect(await client().get({ url: `http://clinic.io.test:${port(plain)}/`, address: HOST, signal })).toMatchObject({
      ok: true,
      status: 200,
      body: `host=clinic.io.test:${port(plain)}`,
    });
  });

  it("times out on a server that accepts and never answers", async () => {
    const started = performance.now();
    expect(
      await client(10_000, 300).get({ url: `https://www.io.test:${hung.port}/`, address: HOST, signal }),
    ).toMatchObject({
      ok: false,
      code: "timeout",
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("TCP connect", () => {
  it("tells open from closed ports and sends nothing", async () => {
    const listener = await startSilentTcpListener(HOST, 0);
    const tcp = createNodeTcpConnect({ timeoutMs: 1_000 });
    expect(await tcp.connect({ address: HOST, port: listener.port, signal })).toEqual({ state: "open" });
    await listener.stop();
    expect(await tcp.connect({ address: HOST, port: listener.port, signal })).toEqual({ state: "closed" });
    expect(listener.received()).toBe(1);
  });
});
