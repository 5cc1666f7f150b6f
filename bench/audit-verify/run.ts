// bench/audit-verify: `hcs-server audit verify`'s work (verifyAuditLog: read every event from the store, rebuild and
// hash its record, rebuild the tree, check the checkpoints) over a log of 1,000,000 events in a SQLite store, against
// the baseline of hashing the same record bytes with raw SHA-256 — one leaf hash per record, the least any verifier
// must do — and, second, of those bytes and the tree's node inputs (everything the verifier hashes), in the same
// process and run. Prints events per second of each and the ratio (target ≥ 0.5). It runs the
// built server (apps/server/dist), as operators run `hcs-server audit verify`: its worker thread is compiled code.
import { hash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseVerifierKey } from "@hcs/protocol";
import { createCheckpoint } from "../../apps/server/dist/audit/checkpoints.js";
import { loadLogKey, nodeEd25519Verify } from "../../apps/server/dist/audit/log-key.js";
import { sequenceAuditLog } from "../../apps/server/dist/audit/sequencer.js";
import { verifyAuditLog } from "../../apps/server/dist/audit/verify-log.js";
import {
  type AuditEvent,
  appendAuditEvents,
  auditRecordJson,
  auditRecordOf,
} from "../../apps/server/dist/services/audit.js";
import { openStore } from "../../apps/server/dist/store/store.js";
import { median } from "../lib/stats.js";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const BATCH = 10_000;

const OPERATIONS = ["hipaa.grade", "hipaa.scan", "getJob", "hipaa.compliance_state", "uploadScanResults"];
const TRANSPORTS = ["rest", "jsonrpc", "mcp", "a2a"];

/** A realistic mix: a few accounts and keys, several operations and transports, some denials. */
function eventOf(n: number): AuditEvent {
  const denied = n % 37 === 0;
  return {
    at: new Date(1_790_000_000_000 + n * 13).toISOString(),
    request_id: `0b6c7a3e-${String(n).padStart(12, "0")}`,
    actor_key_id: `key_${String(n % 97).padStart(16, "0")}`,
    actor_account_id: `acct_${String(n % 31).padStart(16, "0")}`,
    action: OPERATIONS[n % OPERATIONS.length]!,
    transport: TRANSPORTS[n % TRANSPORTS.length]!,
    resource: `practice:${1_234_567_893 + (n % 50)}`,
    outcome: denied ? "denied" : "success",
    status: denied ? 402 : 200,
    code: denied ? "insufficient_credits" : null,
    client_ip: "127.0.0.1",
    duration_ms: 1.25,
  };
}

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

const dir = mkdtempSync(join(tmpdir(), "hcs-bench-audit-verify-"));
const store = openStore({ engine: "sqlite", file: join(dir, "hcs.sqlite") });
try {
  await store.migrate();
  const key = loadLogKey(dir, "bench.hcs.test/audit");
  const verifier = parseVerifierKey(key.verifierKey)!;

  let t0 = process.hrtime.bigint();
  for (let from = 0; from < EVENTS; from += BATCH) {
    const events = Array.from({ length: Math.min(BATCH, EVENTS - from) }, (_, i) => eventOf(from + i));
    await store.writes.run((trx) => appendAuditEvents(store.hot, trx, events));
    // Two checkpoints: one half-way (so the second carries a consistency proof) and one at the end.
    if (from + BATCH >= EVENTS / 2 && from < EVENTS / 2) {
      while ((await sequenceAuditLog(store, BATCH)).sequenced > 0);
      await createCheckpoint(store, key, new Date());
    }
  }
  while ((await sequenceAuditLog(store, BATCH)).sequenced > 0);
  await createCheckpoint(store, key, new Date());
  console.log(`built a log of ${EVENTS} events with 2 checkpoints in ${seconds(t0).toFixed(1)} s`);

  // The bytes the verifier hashes, read back from the store as it reads them (so the baseline hashes exactly them).
  // On SQLite ids are in commit order, which is leaf order (docs/audit.md).
  const rows = await store.db.selectFrom("audit_events").selectAll().orderBy("id").execute();
  const records = rows.map((e) => `\0${auditRecordJson(auditRecordOf(e, e.salt))}`);
  const bytes = records.reduce((n, r) => n + Buffer.byteLength(r), 0);
  rows.length = 0;

  // The tree's node inputs (0x01 and two child hashes, 65 bytes), as many as a tree of these leaves has nodes.
  const nodeInput = Buffer.alloc(65, 1);
  const baseline: number[] = [];
  const withNodes: number[] = [];
  const verify: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    t0 = process.hrtime.bigint();
    let x = 0;
    for (const record of records) x ^= hash("sha256", record, "buffer")[0]!;
    baseline.push(seconds(t0));
    t0 = process.hrtime.bigint();
    for (let i = 1; i < records.length; i++) {
      nodeInput[1] = i & 0xff;
      x ^= hash("sha256", nodeInput, "buffer")[0]!;
    }
    withNodes.push(baseline.at(-1)! + seconds(t0));
    if (x === 256) console.log("unreachable"); // keeps the loops' results alive

    t0 = process.hrtime.bigint();
    const v = await verifyAuditLog(store, verifier, nodeEd25519Verify);
    verify.push(seconds(t0));
    if (!v.ok || v.leaves !== EVENTS) throw new Error(`the log did not verify: ${JSON.stringify(v.firstProblem)}`);
  }
  const hashRate = EVENTS / median(baseline);
  const nodesRate = EVENTS / median(withNodes);
  const verifyRate = EVENTS / median(verify);
  const rate = (n: number) => Math.round(n).toLocaleString("en-US").padStart(10);
  console.log(
    `\n${EVENTS} events, ${(bytes / EVENTS).toFixed(0)} bytes per record on average, ${REPEATS} runs each (medians)`,
  );
  console.log(`raw SHA-256 of each record                 ${rate(hashRate)} events/s`);
  console.log(`raw SHA-256 of each record and tree node   ${rate(nodesRate)} events/s`);
  console.log(`audit verify (two ranges at once)          ${rate(verifyRate)} events/s`);
  console.log(`ratio verify / records                     ${(verifyRate / hashRate).toFixed(2)}   (target ≥ 0.5)`);
  console.log(`ratio verify / records and nodes           ${(verifyRate / nodesRate).toFixed(2)}`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
