import { readFileSync } from "node:fs";
import type { PhaseResult } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { createFakeHost, type FakeFile } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { notAssessed } from "../../scan/not-assessed.js";
import { summarizeScan } from "../../scan/summary.js";
import { portsPhase } from "../ports/index.js";

// A check this run lacked the privileges for is listed as not assessed and counts as the most severe finding it can
// raise here, so a scan without root never grades better than one with root, whatever the check would have found.

const fixture = (name: string) => readFileSync(new URL(`../ports/fixtures/${name}`, import.meta.url), "utf8");
const TABLE = fixture("linux-proc-net-tcp.txt");
/** The same table with Redis bound to every interface (0.0.0.0:6379) instead of 127.0.0.1. */
const TABLE_REDIS_EXPOSED = TABLE.replace("0100007F:18EB", "00000000:18EB");
const REDIS_NO_PASSWORD = fixture("linux-redis.conf");
const REDIS_PASSWORD = `${REDIS_NO_PASSWORD}\nrequirepass a-long-password\n`;
const HBA_TRUST_LAN = `${fixture("linux-pg_hba.conf")}host all all 192.168.50.0/24 trust\n`;
const HBA_LOCAL_ONLY = fixture("linux-pg_hba.conf");
const hostScope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };

async function portsResult(o: {
  privileged: boolean;
  table: string;
  redis: string | FakeFile;
  hba: string | FakeFile;
}): Promise<PhaseResult> {
  const host = createFakeHost({
    platform: "linux",
    isPrivileged: o.privileged,
    files: { "/proc/net/tcp": o.table, "/etc/redis/redis.conf": o.redis, "/etc/postgresql/15/main/pg_hba.conf": o.hba },
  });
  const [result] = await runPhases({ host, phases: [portsPhase], scope: hostScope, options: { ephiPaths: [] } });
  return result!;
}

/** This host's local grade from the ports phase and an access_control phase that found nothing else. */
function score(ports: PhaseResult): number {
  const accessControl: PhaseResult = { id: "access_control", status: "ok", duration_ms: 1, facts: {}, findings: [] };
  return summarizeScan([ports, accessControl], "frontdesk-01").localGrade!.score;
}

describe("a check this run lacked the privileges for", () => {
  it.each([
    ["bound to loopback", "low", TABLE],
    ["bound beyond loopback", "high", TABLE_REDIS_EXPOSED],
  ] as const)(
    "Redis %s, redis.conf in a directory only root may search: not assessed, counted as %s, never a better grade",
    async (_, severity, table) => {
      // Debian's /etc/redis is 2770 redis:redis: without root the file cannot even be seen.
      const gap = await portsResult({
        privileged: false,
        table,
        redis: { content: REDIS_NO_PASSWORD, searchable: false },
        hba: { content: HBA_TRUST_LAN, readable: false },
      });
      expect(gap.status).toBe("ok");
      // (MariaDB listens in the captured table, and this fake machine has no client to ask it: named too.)
      expect(gap.facts.not_assessed).toMatchObject({
        database_configs: "not readable by this run: /etc/redis/redis.conf, /etc/postgresql/15/main/pg_hba.conf",
      });
      const gaps = gap.findings.filter((f) => f.check_id === "ports.not_assessed");
      expect(gaps.map((f) => [f.id, f.severity, f.category])).toEqual([
        ["ports.not_assessed:/etc/redis/redis.conf", severity, "access_control"],
        ["ports.not_assessed:/etc/postgresql/15/main/pg_hba.conf", "high", "access_control"],
      ]);
      expect(gaps[0]!.title).toBe(
        "Not assessed without administrator (root) privileges: whether Redis asks for a password (/etc/redis/redis.conf)",
      );
      expect(gaps[0]!.remediation).toMatch(/^Run the scan with administrator privileges: sudo hcs-scanner scan/);
      expect(notAssessed([gap]).filter((g) => g.check === "database_configs")).toEqual([
        {
          phase: "ports",
          check: "database_configs",
          status: "ok",
          reason: "not readable by this run: /etc/redis/redis.conf, /etc/postgresql/15/main/pg_hba.conf",
          counted_as: "high",
        },
      ]);

      // Whatever root would have read, the grade without root is no better.
      for (const redis of [REDIS_NO_PASSWORD, REDIS_PASSWORD])
        for (const hba of [HBA_TRUST_LAN, HBA_LOCAL_ONLY]) {
          const root = await portsResult({ privileged: true, table, redis, hba });
          expect(root.facts.not_assessed).not.toHaveProperty("database_configs");
          expect(root.findings.some((f) => f.check_id === "ports.not_assessed")).toBe(false);
          expect(score(gap)).toBeLessThanOrEqual(score(root));
        }
    },
  );

  it("as root, a file that cannot be read is listed as not assessed but is no privilege gap", async () => {
    const root = await portsResult({
      privileged: true,
      table: TABLE,
      redis: { content: REDIS_NO_PASSWORD, readable: false },
      hba: HBA_LOCAL_ONLY,
    });
    expect(root.facts.not_assessed).toMatchObject({
      database_configs: "not readable by this run: /etc/redis/redis.conf",
    });
    expect(root.findings).toEqual([]);
  });
});
