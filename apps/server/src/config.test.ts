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
      trustProxy: false,
      allowPrivateTargets: false,
      logLevel: "info",
      dnsServers: null,
      workerConcurrency: 4,
      masterKeyHex: null,
      extraCaFile: null,
      jobLeaseMs: 30_000,
      webhookRetryBaseMs: 10_000,
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
        HCS_ALLOW_PRIVATE_TARGETS: "true",
        HCS_LOG_LEVEL: "warn",
        HCS_DNS_SERVERS: "127.0.0.1:5353, [::1]:53",
        HCS_MASTER_KEY: "ab".repeat(32),
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
      trustProxy: true,
      allowPrivateTargets: true,
      logLevel: "warn",
      dnsServers: [
        { host: "127.0.0.1", port: 5353 },
        { host: "::1", port: 53 },
      ],
    });
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
