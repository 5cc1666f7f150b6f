// bench/audit-verify: `hcs-server audit verify`'s work (verifyAuditLog: read every event from the store, rebuild and
// hash its record, rebuild the tree, check the checkpoints) over a log of 1,000,000 events in a SQLite store, then in
// PostgreSQL (when reachable: DATABASE_URL, else the local test database, in a schema of its own), against the
// baseline of hashing the same record bytes with raw SHA-256 — one `crypto.hash` call per record, the least any
// verifier must do — measured two ways: the digest returned as a Buffer (as measured before 2026-11-24) and as a
// latin1 string (the cheapest form Node has: no Buffer to allocate); and, third, of those bytes and the tree's node
// inputs (everything the verifier hashes), in the same process and run. Prints events per second of each and the
// ratios (target ≥ 0.5 of the cheapest). It runs the built server (apps/server/dist), as operators run `hcs-server
// audit verify`: its worker thread is compiled code; and each verify in a process of its own (verify-once.ts), as
// `hcs-server audit verify` runs, not in the heap that holds the baseline's million strings.
import { execFile } from "node:child_process";
import { hash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createCheckpoint } from "../../apps/server/dist/audit/checkpoints.js";
import { type AuditLogKeys, provisionAuditLogKeys } from "../../apps/server/dist/audit/log-keys.js";
import { sequenceAuditLog } from "../../apps/server/dist/audit/sequencer.js";
import { createSecretBox } from "../../apps/server/dist/secrets/master-key.js";
import {
  type AuditEvent,
  appendAuditEvents,
  auditRecordJson,
  auditRecordOf,
} from "../../apps/server/dist/services/audit.js";
import type { Store, StoreOptions } from "../../apps/server/dist/store/store.js";
import { openStore } from "../../apps/server/dist/store/store.js";
import {
  createTestSchema,
  postgresUnavailableReason,
  TEST_PG_URL,
} from "../../apps/server/src/test-support/postgres.js";
import { median } from "../lib/stats.js";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PG_EVENTS = Number(process.env.BENCH_PG_EVENTS ?? EVENTS);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
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

const KEY_NAME = "bench.hcs.test/audit";
const VERIFY_ONCE = join(dirname(fileURLToPath(import.meta.url)), "verify-once.ts");

/** One `audit verify` of the log in a process of its own (verify-once.ts): the seconds it took. */
async function verifyInChild(options: StoreOptions, events: number): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", VERIFY_ONCE, JSON.stringify({ store: options })],
    { maxBuffer: 1 << 20 },
  );
  const v = JSON.parse(stdout.trim().split("\n").at(-1)!) as { seconds: number; leaves: number; ok: boolean };
  if (!v.ok || v.leaves !== events) throw new Error(`the log did not verify: ${stdout}`);
  return v.seconds;
}

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const rate = (n: number) => Math.round(n).toLocaleString("en-US").padStart(10);

/** Appends `events` events to the store's log, sequenced, with a checkpoint half-way and one at the end. */
async function buildLog(store: Store, events: number): Promise<void> {
  // The log's key, in the store as a server provisions it (sealed under a master key of the bench's own).
  const key: AuditLogKeys = await provisionAuditLogKeys(store, createSecretBox(randomBytes(32)), {
    origin: KEY_NAME,
    now: new Date(),
  });
  const t0 = process.hrtime.bigint();
  for (let from = 0; from < events; from += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, events - from) }, (_, i) => eventOf(from + i));
    await store.writes.run((trx) => appendAuditEvents(store.hot, trx, batch));
    // Two checkpoints: one half-way (so the second carries a consistency proof) and one at the end.
    if (from + BATCH >= events / 2 && from < events / 2) {
      while ((await sequenceAuditLog(store, BATCH)).sequenced > 0);
      await createCheckpoint(store, key, new Date());
    }
  }
  while ((await sequenceAuditLog(store, BATCH)).sequenced > 0);
  await createCheckpoint(store, key, new Date());
  console.log(`built a log of ${events} events with 2 checkpoints in ${seconds(t0).toFixed(1)} s`);
}

/** The baselines and verify, REPEATS rounds alternating, over the log in `store`. */
async function measure(label: string, store: Store, options: StoreOptions, events: number) {
  // The bytes the verifier hashes, read back from the store as it reads them (so the baseline hashes exactly them),
  // in id order (on SQLite the leaf order; on PostgreSQL the bench's one writer makes it so too).
  // Read in pages: one statement over the whole log outlasts PostgreSQL's statement timeout.
  const records: string[] = [];
  for (let after = 0; ; ) {
    const rows = await store.db
      .selectFrom("audit_events")
      .selectAll()
      .where("id", ">", after)
      .orderBy("id")
      .limit(50_000)
      .execute();
    if (rows.length === 0) break;
    for (const e of rows)
      records.push(`\0${auditRecordJson(auditRecordOf({ ...e, status: Number(e.status) }, e.salt))}`);
    after = Number(rows.at(-1)!.id);
  }
  const bytes = records.reduce((n, r) => n + Buffer.byteLength(r), 0);

  // The tree's node inputs (0x01 and two child hashes, 65 bytes), as many as a tree of these leaves has nodes.
  const nodeInput = Buffer.alloc(65, 1);
  const asBuffer: number[] = [];
  const asLatin1: number[] = [];
  const withNodes: number[] = [];
  const verify: number[] = [];
  let x = 0;
  for (let r = 0; r < REPEATS; r++) {
    let t0 = process.hrtime.bigint();
    for (const record of records) x ^= hash("sha256", record, "buffer")[0]!;
    asBuffer.push(seconds(t0));
    t0 = process.hrtime.bigint();
    for (const record of records) x ^= hash("sha256", record, "binary").charCodeAt(0);
    asLatin1.push(seconds(t0));
    t0 = process.hrtime.bigint();
    for (let i = 1; i < records.length; i++) {
      nodeInput[1] = i & 0xff;
      x ^= hash("sha256", nodeInput, "binary").charCodeAt(0);
    }
    withNodes.push(asLatin1.at(-1)! + seconds(t0));

    verify.push(await verifyInChild(options, events));
  }
  if (x === 256) console.log("unreachable"); // keeps the loops' results alive
  const bufferRate = events / median(asBuffer);
  const latin1Rate = events / median(asLatin1);
  const nodesRate = events / median(withNodes);
  const verifyRate = events / median(verify);
  console.log(
    `\n${label}: ${events} events, ${(bytes / events).toFixed(0)} bytes per record on average, ${REPEATS} runs each (medians)`,
  );
  console.log(`raw SHA-256 of each record, digest as a Buffer         ${rate(bufferRate)} events/s`);
  console.log(`raw SHA-256 of each record, digest as latin1           ${rate(latin1Rate)} events/s`);
  console.log(`raw SHA-256 of each record and tree node (latin1)      ${rate(nodesRate)} events/s`);
  console.log(`audit verify                                           ${rate(verifyRate)} events/s`);
  console.log(
    `ratio verify / records (latin1)                        ${(verifyRate / latin1Rate).toFixed(2)}   (target ≥ 0.5)`,
  );
  console.log(`ratio verify / records (Buffer, as measured before)    ${(verifyRate / bufferRate).toFixed(2)}`);
  console.log(`ratio verify / records and nodes                       ${(verifyRate / nodesRate).toFixed(2)}`);
  console.log(
    `load average (1, 5, 15 min)                            ${loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}`,
  );
}

// SQLite. BENCH_STORE_DIR keeps the built log there and reuses it in later runs (building it takes a while).
const keptDir = process.env.BENCH_STORE_DIR ? join(process.env.BENCH_STORE_DIR, String(EVENTS)) : null;
const reuse = keptDir !== null && existsSync(join(keptDir, "built"));
if (keptDir && !reuse) {
  rmSync(keptDir, { recursive: true, force: true });
  mkdirSync(keptDir, { recursive: true });
}
const dir = keptDir ?? mkdtempSync(join(tmpdir(), "hcs-bench-audit-verify-"));
const sqliteOptions: StoreOptions = { engine: "sqlite", file: join(dir, "hcs.sqlite") };
const store = openStore(sqliteOptions);
try {
  await store.migrate();
  if (reuse) console.log(`reusing the log of ${EVENTS} events in ${dir}`);
  else {
    await buildLog(store, EVENTS);
    if (keptDir) writeFileSync(join(keptDir, "built"), "");
  }
  await measure("SQLite (embedded, two threads)", store, sqliteOptions, EVENTS);
} finally {
  await store.close();
  if (!keptDir) rmSync(dir, { recursive: true, force: true });
}

// PostgreSQL as the tests reach it, in a schema of its own (built each run).
const unreachable = PG_EVENTS > 0 ? await postgresUnavailableReason() : "BENCH_PG_EVENTS=0";
if (unreachable) console.log(`\n[skip] PostgreSQL: ${unreachable}`);
else {
  const { url, schema, drop } = await createTestSchema();
  const pgOptions: StoreOptions = { engine: "postgres", url, schema };
  const pg = openStore(pgOptions);
  try {
    await pg.migrate();
    await buildLog(pg, PG_EVENTS);
    await measure(`PostgreSQL (${new URL(TEST_PG_URL).host}, schema of its own)`, pg, pgOptions, PG_EVENTS);
  } finally {
    await pg.close();
    await drop();
  }
}
