// bench/account-statement: what `GET /v1/a2a/account` (hipaa.account) costs as an account's credit ledger grows, on
// each storage engine — an embedded SQLite store, then PostgreSQL (the local test database, as the tests reach it;
// skipped with a printed reason when unreachable). The account statement reads the account's whole ledger (three
// grouped reads: services/usage-statements.ts); the baseline in the same run is one plain scan of the same rows
// (`count(*)` and `sum(delta)` of the account's ledger), so the ratio says how many scans' worth a statement costs.
// Measured twice: after a new ledger row (a paid call: the statements are computed again) and with the ledger
// unchanged (the process's kept statements, after one read of the ledger's index).
// Ledgers of 1,000, 10,000 and 100,000 rows (a year of one grade lookup every five minutes is 105,000), with a
// second account's rows interleaved as a busy database has them; three plan years, one change of plan.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { createSecretBox } from "../../apps/server/src/secrets/master-key.js";
import { accountOverview } from "../../apps/server/src/services/account-overview.js";
import { setAccountPlan } from "../../apps/server/src/services/account-plans.js";
import { createAccount } from "../../apps/server/src/services/accounts.js";
import type { ServiceDeps } from "../../apps/server/src/services/deps.js";
import { insertRows } from "../../apps/server/src/store/hot-sql.js";
import { openStore, type Store } from "../../apps/server/src/store/store.js";
import {
  createTestSchema,
  postgresUnavailableReason,
  TEST_PG_URL,
} from "../../apps/server/src/test-support/postgres.js";
import { median } from "../lib/stats.js";

const SIZES = [1_000, 10_000, 100_000];
const RUNS = 7;
const START = Date.parse("2024-01-01T00:00:00.000Z");
const NOW = Date.parse("2026-11-22T12:00:00.000Z");
const OPERATIONS = ["grade", "grade", "grade", "findings", "breach", "full_scan", "sra"] as const;
const PRICE: Record<string, number> = { grade: 25, findings: 25, breach: 25, full_scan: 150, sra: 500 };

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** `rows` ledger rows for the account between START and NOW: charges, a refund every 50th, grants to pay for them. */
async function fillLedger(store: Store, accountId: string, rows: number): Promise<void> {
  const step = (NOW - START) / rows;
  let balance = 0;
  const batch: unknown[][] = [];
  for (let i = 0; i < rows; i++) {
    const at = new Date(START + i * step).toISOString();
    let operation: string;
    let delta: number;
    let reference: string;
    if (i % 100 === 0) {
      operation = "grant";
      delta = 100_000;
      reference = `INV-${i}`;
    } else if (i % 50 === 1) {
      operation = "refund";
      delta = 150;
      reference = `job:${i - 1}`;
    } else {
      operation = i % 50 === 0 ? "full_scan" : OPERATIONS[i % OPERATIONS.length]!;
      delta = -PRICE[operation]!;
      reference = operation === "full_scan" ? `job:${i}` : `req-${i}`;
    }
    balance += delta;
    batch.push([accountId, delta, balance, operation, reference, at]);
    if (batch.length === 500 || i === rows - 1) {
      await store.writes.run((trx) =>
        insertRows(
          store.hot,
          trx,
          "credit_ledger",
          ["account_id", "delta", "balance_after", "operation", "reference", "created_at"],
          batch.splice(0),
        ),
      );
    }
  }
}

async function bench(engine: string, store: Store): Promise<void> {
  console.log(`\n== ${engine} ==`);
  console.log("ledger rows   baseline scan   after a paid call (ratio)   ledger unchanged (ratio)");
  for (const size of SIZES) {
    let clock = START;
    const deps: ServiceDeps = { store, now: () => new Date(clock), secrets: createSecretBox(randomBytes(32)) };
    const { account } = await createAccount(deps, { name: "Bench", plan: "free", tier: "bulk", credits: 0 });
    const { account: other } = await createAccount(deps, { name: "Other", plan: "free", tier: "bulk", credits: 0 });
    clock = START + 200 * 86_400_000;
    await setAccountPlan(deps, { accountId: account.id, plan: "professional" });
    await fillLedger(store, account.id, size);
    await fillLedger(store, other.id, size);
    clock = NOW;
    const caller = { keyId: "key_bench", accountId: account.id, plan: "professional" as const, tier: "bulk" as const };
    const scans: number[] = [];
    const changed: number[] = [];
    const unchanged: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await sql`select count(*) as n, sum(delta) as total from credit_ledger where account_id = ${account.id}`.execute(
        store.db,
      );
      scans.push(performance.now() - t);
      // A paid call's ledger row: the next statement is computed from the ledger again.
      await store.writes.run((trx) =>
        insertRows(
          store.hot,
          trx,
          "credit_ledger",
          ["account_id", "delta", "balance_after", "operation", "reference", "created_at"],
          [[account.id, -25, 0, "grade", `req-extra-${i}`, new Date(NOW - 1000).toISOString()]],
        ),
      );
      t = performance.now();
      const overview = await accountOverview(deps, caller, null);
      changed.push(performance.now() - t);
      if (overview.past_periods.length < 1) throw new Error("expected past periods");
      t = performance.now();
      await accountOverview(deps, caller, null);
      unchanged.push(performance.now() - t);
    }
    const scan = median(scans);
    const miss = median(changed);
    const hit = median(unchanged);
    console.log(
      `${String(size).padStart(11)}   ${ms(scan).padStart(13)}   ${`${ms(miss)} (${(miss / scan).toFixed(1)}×)`.padStart(25)}   ${`${ms(hit)} (${(hit / scan).toFixed(1)}×)`.padStart(24)}`,
    );
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "hcs-bench-account-"));
  try {
    const sqlite = openStore({ engine: "sqlite", file: join(dir, "bench.sqlite") });
    await sqlite.migrate();
    await bench("SQLite", sqlite);
    await sqlite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const reason = await postgresUnavailableReason();
  if (reason) {
    console.log(`\n[skip] PostgreSQL: ${reason}`);
    return;
  }
  const { schema, drop } = await createTestSchema();
  const pg = openStore({ engine: "postgres", url: TEST_PG_URL, schema });
  try {
    await pg.migrate();
    await bench("PostgreSQL", pg);
  } finally {
    await pg.close();
    await drop();
  }
}

await main();
