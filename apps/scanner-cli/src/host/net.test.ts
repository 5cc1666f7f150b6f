import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetProbe } from "./net.js";
import { tcpConnect } from "./net-connect.js";
import { probeTls } from "./net-tls.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/tls/${name}`, import.meta.url));

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}

describe("TCP connect probe (loopback only)", () => {
  const server = createServer((s) => s.destroy());
  let port = 0;
  beforeAll(async () => {
    port = await listen(server, "127.0.0.2");
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("tells open from closed", async () => {
    expect((await tcpConnect("127.0.0.2", port, 1000)).state).toBe("open");
    expect((await tcpConnect("127.0.0.3", port, 1000)).state).toBe("closed");
  });

  it("answers filtered at once when already cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await tcpConnect("127.0.0.2", port, 1000, controller.signal)).state).toBe("filtered");
  });

  it("has a socket budget within its bounds", async () => {
    const budget = await createNetProbe().socketBudget();
    expect(budget).toBeGreaterThanOrEqual(16);
    expect(budget).toBeLessThanOrEqual(4096);
  });
});

describe("TLS probe (loopback only)", () => {
  const key = fixture("test-key.pem");
  const cert = fixture("test-cert.pem");
  const modern = createTlsServer({ key, cert, minVersion: "TLSv1.2" }, (s) => s.end());
  const legacy = createTlsServer(
    { key, cert, minVersion: "TLSv1", maxVersion: "TLSv1.1", ciphers: "DEFAULT:@SECLEVEL=0" },
    (s) => s.end(),
  );
  // resume(): an unread ClientHello would otherwise keep the server-side socket (and close()) waiting forever.
  const plain = createServer((s) => s.resume().end("SSH-2.0-OpenSSH_9.2\r\n"));
  const ports = { modern: 0, legacy: 0, plain: 0 };
  beforeAll(async () => {
    ports.modern = await listen(modern, "127.0.0.4");
    ports.legacy = await listen(legacy, "127.0.0.4");
    ports.plain = await listen(plain, "127.0.0.4");
  });
  afterAll(async () => {
    for (const s of [modern, legacy, plain]) await new Promise<void>((r) => s.close(() => r()));
  });

  it("lists the versions a modern server accepts and reads its certificate", async () => {
    const r = await probeTls("127.0.0.4", ports.modern, 3000);
    expect(r.tls).toBe(true);
    expect(r.versions).toEqual(["TLSv1.2", "TLSv1.3"]);
    expect(r.certificate).toMatchObject({ subject: "CN=hcs-probe-test.invalid", keyBits: 2048, selfSigned: true });
    expect(r.certificate?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("finds legacy TLS 1.0 and 1.1 that a default client would refuse", async () => {
    const r = await probeTls("127.0.0.4", ports.legacy, 3000);
    expect(r.versions).toEqual(["TLSv1", "TLSv1.1"]);
  });

  it("says a cleartext service is reachable but not TLS", async () => {
    const r = await probeTls("127.0.0.4", ports.plain, 3000);
    expect(r).toMatchObject({ reachable: true, tls: false, versions: [] });
  });

  it("says a closed port is unreachable", async () => {
    const r = await probeTls("127.0.0.5", ports.plain, 3000);
    expect(r).toMatchObject({ reachable: false, tls: false });
  });
});
