// bench/soak: the distributed setup under mixed traffic and faults, for 10 minutes (or SOAK_DURATION_S seconds, or
// the first argument): 3 `hcs-server serve --no-worker` + 2 `hcs-server worker` processes of the built server (as
// `npm start` runs it) on one PostgreSQL database — a schema of its own in DATABASE_URL's database (else the local
// test database), reached through a TCP proxy — with traffic from four accounts (grade lookups, batches, scan
// dispatches with webhooks to a loopback receiver, signed scanner uploads, portal pages) and faults on a schedule
// (kill -9 of each process in turn, pg_terminate_backend, a disconnect storm, the database blackholed 10 s, a database
// restart simulated at the proxy). Prints the figures and PASS/FAIL per invariant (docs/performance.md#soak); exits 1
// when one fails. Its baseline is its own invariants: what must hold with no fault at all holds through them.

import { loadavg } from "node:os";
import { join } from "node:path";
import { postgresUnavailableReason } from "../../apps/server/src/test-support/postgres.js";
import { formatSoak, runSoak } from "../../apps/server/src/test-support/soak/soak.js";

const durationS = Number(process.argv[2] ?? process.env.SOAK_DURATION_S ?? 600);
if (!Number.isFinite(durationS) || durationS < 60) {
  console.error("usage: npm run bench -- soak   (SOAK_DURATION_S: seconds, at least 60; default 600)");
  process.exit(2);
}
const unreachable = await postgresUnavailableReason();
if (unreachable) {
  console.error(`bench/soak needs PostgreSQL: ${unreachable}`);
  process.exit(1);
}
const started = new Date();
console.log(
  `soak of ${durationS} s from ${started.toISOString()}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`,
);
const result = await runSoak({
  durationS,
  bin: { nodeArgs: ["--max-semi-space-size=8"], script: join(import.meta.dirname, "../../apps/server/dist/bin.js") },
  loopbackPrefix: "127.0.72",
  log: (line) => console.log(line),
});
console.log(`\n${formatSoak(result)}`);
console.log(
  `load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`,
);
process.exit(result.ok ? 0 : 1);
