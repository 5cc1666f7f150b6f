import { describe, expect, it } from "vitest";
import { HCS_BIN } from "../test-support/hcs-bin.js";
import { shouldRunPostgres } from "../test-support/postgres.js";
import { formatSoak, runSoak } from "../test-support/soak/soak.js";

const runPg = await shouldRunPostgres();
const DURATION_S = Number(process.env.HCS_SOAK_DURATION_S ?? 120);

/**
 * The soak of bench/soak, two minutes of it (HCS_SOAK_DURATION_S to change): 3 serve + 2 worker processes of the
 * server's sources on one PostgreSQL, mixed traffic from four accounts, a fault of each kind on the schedule, and every
 * invariant at the end (docs/performance.md#soak).
 */
describe.runIf(runPg)("soak: the distributed setup under traffic and faults", () => {
  it(
    "keeps every invariant",
    async () => {
      const result = await runSoak({
        durationS: DURATION_S,
        bin: { nodeArgs: [...HCS_BIN.loader], script: HCS_BIN.script },
        loopbackPrefix: "127.0.71",
      });
      const report = formatSoak(result);
      console.log(report);
      // Each kind of fault was injected at least once.
      expect(new Set(result.faults.map((f) => f.kind))).toEqual(
        new Set(["kill_9", "terminate_backends", "disconnect_storm", "blackhole_10s", "database_restart"]),
      );
      for (const v of result.invariants) expect(v.ok, `${v.name}: ${v.detail}\n\n${report}`).toBe(true);
    },
    (DURATION_S + 420) * 1000,
  );
});
