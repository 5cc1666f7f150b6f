import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({}, "/srv");
    expect(c).toMatchObject({
      dataDir: "/srv/.hcs-data",
      databaseUrl: null,
      host: "127.0.0.1",
      port: 8443,
      httpPort: null,
      tls: null,
      publicUrl: "https://127.0.0.1:8443",
      publicUrlExplicit: false,
      trustProxy: { kind: "none" },
      contactEmail: null,
      allowPrivateTargets: false,
      logLevel: "info",
      dnsServers: null,
      workerConcurrency: 4,
      masterKeyHex: null,
      extraCaFile: null,
      jobLeaseMs: 30_000,
      webhookRetryBaseMs: 10_000,
      dbTimeouts: { connectMs: 3_000, statementMs: 5_000 },
    });
  });

  it("reads every variable", () => {
    const c = loadConfig(
      {
        HCS_DATA_DIR: "data",
        DATABASE_URL: "postgres://u:p@db:5432/hcs",
        HCS_HOST: "0.0.0.0",
        HCS_PORT: "9443",
        HCS_HTTP_PORT: "9080",
        HCS_TLS_CERT: "c.pem",
        HCS_TLS_KEY: "k.pem",
        HCS_PUBLIC_URL: "https://hcs.example.org/",
        HCS_TRUST_PROXY: "1",
        HCS_CONTACT_EMAIL: "sales@hcs.example.org",
        HCS_ALLOW_PRIVATE_TARGETS: "true",
        HCS_LOG_LEVEL: "warn",
        HCS_DNS_SERVERS: "127.0.0.1:5353, [::1]:53",
        HCS_MASTER_KEY: "ab".repeat(32),
        HCS_DB_CONNECT_TIMEOUT_MS: "1500",
        HCS_DB_STATEMENT_TIMEOUT_MS: "2500",
        UNRELATED: "ignored",
      },
      "/srv",
    );
    expect(c).toMatchObject({
      dataDir: "/srv/data",
      databaseUrl: "postgres://u:p@db:5432/hcs",
      host: "0.0.0.0",
      port: 9443,
      httpPort: 9080,
      tls: { certFile: "/srv/c.pem", keyFile: "/srv/k.pem" },
      publicUrl: "https://hcs.example.org",
      publicUrlExplicit: true,
      trustProxy: { kind: "hops", hops: 1 },
      contactEmail: "sales@hcs.example.org",
      allowPrivateTargets: true,
      logLevel: "warn",
      dnsServers: [
        { host: "127.0.0.1", port: 5353 },
        { host: "::1", port: 53 },
      ],
      dbTimeouts: { connectMs: 1500, statementMs: 2500 },
    });
  });

  it("HCS_TRUST_PROXY takes a hop count or a list of proxy addresses and networks", () => {
    expect(loadConfig({ HCS_TRUST_PROXY: "2" }, "/").trustProxy).toEqual({ kind: "hops", hops: 2 });
    expect(loadConfig({ HCS_TRUST_PROXY: "true" }, "/").trustProxy).toEqual({ kind: "hops", hops: 1 });
    expect(loadConfig({ HCS_TRUST_PROXY: "0" }, "/").trustProxy).toEqual({ kind: "none" });
    const list = loadConfig({ HCS_TRUST_PROXY: "10.0.0.0/8, 2001:db8::1,192.0.2.7/32" }, "/").trustProxy;
    expect(list.kind).toBe("addresses");
  });

  it.each([
    ["HCS_MASTER_KEY", "aaaa0123deadbeef"],
    ["DATABASE_URL", "postgre://admin:Sup3rSecret@db/hcs"],
  ])("never echoes the value of secret variable %s in an error", (variable, value) => {
    try {
      loadConfig({ [variable]: value }, "/");
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).variable).toBe(variable);
      expect((err as Error).message).not.toContain(value);
      expect((err as Error).message).not.toContain("Sup3rSecret");
      expect((err as Error).message).not.toContain("aaaa");
      expect((err as Error).message).toMatch(/not shown/);
    }
  });

  it.each([
    ["HCS_FEED_HHS_URL", "http://feeduser:Fe3dPassw0rd@feeds.example/breaches.csv"],
    ["HCS_FEED_HHS_URL", "ftp://feeds.example/breaches.csv?token=T0kenV4lue&x=1"],
    ["HCS_FEED_KEV_URL", "http://feeds.example/kev.json?token=T0kenV4lue"],
    ["HCS_FEED_KEV_URL", "https//feeduser:Fe3dPassw0rd@feeds.example/kev.json"],
    ["HCS_FEED_EOL_URL", "https://feeduser:Fe3dPassw0rd@eol.example/api.json?token=T0kenV4lue"],
    ["HCS_PUBLIC_URL", "http://admin:Fe3dPassw0rd@hcs.example/#T0kenV4lue"],
  ])("quotes %s without the credentials a URL may carry (%s)", (variable, value) => {
    try {
      loadConfig({ [variable]: value }, "/");
      expect.unreachable();
    } catch (err) {
      const message = (err as Error).message;
      expect((err as ConfigError).variable).toBe(variable);
      for (const secret of ["Fe3dPassw0rd", "T0kenV4lue", "feeduser", "admin"]) expect(message).not.toContain(secret);
      expect(message).toContain("***");
      expect(message).toMatch(/feeds\.example|eol\.example|hcs\.example/);
    }
  });

  it("quotes the value of a non-secret variable to help fix it", () => {
    expect(() => loadConfig({ HCS_PORT: "http" }, "/")).toThrow(
      'HCS_PORT: Invalid input: expected number, received NaN (got "http")',
    );
  });

  it("HCS_CONTACT_EMAIL must be an email address", () => {
    expect(() => loadConfig({ HCS_CONTACT_EMAIL: "sales at example" }, "/")).toThrow(
      'HCS_CONTACT_EMAIL: must be an email address (got "sales at example")',
    );
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ HCS_HTTP_PORT: "", HCS_PORT: "" }, "/").httpPort).toBeNull();
  });

  it.each([
    [{ HCS_PORT: "99999" }, "HCS_PORT"],
    [{ HCS_PORT: "abc" }, "HCS_PORT"],
    [{ HCS_HTTP_PORT: "-1" }, "HCS_HTTP_PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ HCS_PUBLIC_URL: "http://plain.example" }, "HCS_PUBLIC_URL"],
    [{ HCS_TRUST_PROXY: "maybe" }, "HCS_TRUST_PROXY"],
    [{ HCS_TRUST_PROXY: "11" }, "HCS_TRUST_PROXY"],
    [{ HCS_TRUST_PROXY: "10.0.0.0/33" }, "HCS_TRUST_PROXY"],
    [{ HCS_DB_STATEMENT_TIMEOUT_MS: "0" }, "HCS_DB_STATEMENT_TIMEOUT_MS"],
    [{ HCS_LOG_LEVEL: "loud" }, "HCS_LOG_LEVEL"],
    [{ HCS_TLS_CERT: "c.pem" }, "HCS_TLS_KEY"],
    [{ HCS_TLS_KEY: "k.pem" }, "HCS_TLS_CERT"],
    [{ HCS_HTTP_PORT: "8443" }, "HCS_HTTP_PORT"],
    [{ HCS_DNS_SERVERS: "dns.example:53" }, "HCS_DNS_SERVERS"],
    [{ HCS_DNS_SERVERS: "127.0.0.1" }, "HCS_DNS_SERVERS"],
    [{ HCS_MASTER_KEY: "short" }, "HCS_MASTER_KEY"],
    [{ HCS_HOST: "not a host!" }, "HCS_HOST"],
  ])("rejects %j naming %s in one line", (env, variable) => {
    try {
      loadConfig(env, "/");
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variable).toBe(variable);
      expect((err as Error).message.startsWith(`${variable}: `)).toBe(true);
      expect((err as Error).message).not.toContain("\n");
    }
  });
});
