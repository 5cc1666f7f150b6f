import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopbackExposureClaims, parseSsListeners } from "./exposure-claims.js";

const listeners = parseSsListeners(readFileSync(join(import.meta.dirname, "fixtures", "debian12-ss-hltn.txt"), "utf8"));

describe("exposure claims about loopback-only listeners", () => {
  it("reads ss -Hltn: each port with its bound addresses (IPv6 without brackets)", () => {
    expect(listeners.get(6379)).toEqual(["127.0.0.1", "::1"]);
    expect(listeners.get(2024)).toEqual(["0.0.0.0"]);
    expect(listeners.get(443)).toEqual(["127.0.26.2", "127.0.26.3", "127.0.26.4", "127.0.26.5", "127.0.26.1"]);
  });

  it("flags the findings of the old targets scan of 127.0.0.1 (MySQL, PostgreSQL, Redis 'reachable from this segment')", () => {
    const old = [
      {
        id: "ports.risky_service:127.0.0.1:3306",
        check_id: "ports.risky_service",
        title: "MySQL",
        evidence: { port: 3306 },
      },
      {
        id: "segmentation.sensitive_service_reachable:127.0.0.1:6379",
        check_id: "segmentation.sensitive_service_reachable",
        title: "Redis",
        evidence: { host: "127.0.0.1", port: 6379 },
      },
    ];
    expect(loopbackExposureClaims(old, listeners).map((f) => f.id)).toEqual(old.map((f) => f.id));
  });

  it("does not flag a service bound beyond loopback, Redis judged on loopback, or other findings", () => {
    const fine = [
      {
        id: "ports.risky_service:127.0.0.1:2024",
        check_id: "ports.risky_service",
        title: "x",
        evidence: { port: 2024 },
      },
      {
        id: "ports.redis_without_password:/etc/redis/redis.conf",
        check_id: "ports.redis_without_password",
        title: "Redis needs no password",
        evidence: { port: 6379, exposure: "loopback" },
      },
      { id: "access_control.permissive_umask", check_id: "access_control.permissive_umask", title: "x", evidence: {} },
    ];
    expect(loopbackExposureClaims(fine, listeners)).toEqual([]);
    const redisClaim = { ...fine[1]!, evidence: { port: 6379, exposure: "network" } };
    expect(loopbackExposureClaims([redisClaim], listeners)).toHaveLength(1);
  });
});
