// bench/intel: the two threat-intelligence budgets (docs/performance.md#intel; the feeds and breach matching they
// time: docs/intelligence.md), in this process, on each storage engine the server runs on — an embedded SQLite
// store, then PostgreSQL (DATABASE_URL, else the local test database, as the tests reach it; skipped with a printed
// reason when unreachable), each in a store of its own:
//  1. Import of the full CISA KEV catalogue (parse, schema validation, replace in one transaction, re-evaluate
//     scanner hosts and sites) — budget < 2 s. Baseline in the same run: JSON.parse of the same file alone.
//  2. Breach check (hipaa.breach's lookup: name keys → indexed join → confidence) at 10,000 imported breach reports
//     — budget p99 < 20 ms. Baseline in the same run: a primary-key read of one report on the same store.
// The KEV file is the real catalogue from ../shared/data (skipped with a reason when absent); the 10,000 reports
// are generated here in the portal's export format (invented names, never real records).
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSecretBox } from "../../apps/server/src/secrets/master-key.js";
import { breachCheck } from "../../apps/server/src/services/intel/breach-lookup.js";
import { importHhsBreaches, importKev } from "../../apps/server/src/services/intel/feed-imports.js";
import { openStore, type Store } from "../../apps/server/src/store/store.js";
import {
  createTestSchema,
  postgresUnavailableReason,
  TEST_PG_URL,
} from "../../apps/server/src/test-support/postgres.js";
import { median } from "../lib/stats.js";

const KEV_FILE = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "shared",
  "data",
  "cisa-kev",
  "known_exploited_vulnerabilities.json",
);
const BREACHES = 10_000;
const LOOKUPS = 3_000;
const KEV_RUNS = 7;

const feed = (text: string) => ({ source: "bench", text, sha256: createHash("sha256").update(text).digest("hex") });
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function bench(engine: string, store: Store): Promise<void> {
  const deps = { store, now: () => new Date(), secrets: createSecretBox(randomBytes(32)) };
  console.log(`\n== ${engine} ==`);
  // 1. KEV import.
  if (!existsSync(KEV_FILE)) {
    console.log(`[skip] KEV import: ${KEV_FILE} is absent (../shared/data is not next to this checkout)`);
  } else {
    const text = readFileSync(KEV_FILE, "utf8");
    const raw = JSON.parse(text);
    const imports: number[] = [];
    const parses: number[] = [];
    for (let i = 0; i < KEV_RUNS; i++) {
      // A different version each run, so every run replaces the catalogue (an identical file is a no-op).
      raw.catalogVersion = `bench.${i}`;
      const variant = JSON.stringify(raw);
      let t = performance.now();
      JSON.parse(variant);
      parses.push(performance.now() - t);
      t = performance.now();
      const report = await importKev(deps, feed(variant));
      imports.push(performance.now() - t);
      if (!report.changed || report.records !== raw.vulnerabilities.length)
        throw new Error("KEV import did not replace");
    }
    const imp = median(imports);
    const parse = median(parses);
    console.log(
      `KEV catalogue ${raw.vulnerabilities.length} entries, ${(text.length / 1024 / 1024).toFixed(2)} MiB, ${KEV_RUNS} runs`,
    );
    console.log(`  baseline JSON.parse alone     median ${ms(parse)}`);
    console.log(
      `  full import (validate+write)  median ${ms(imp)}, worst ${ms(Math.max(...imports))}  → ${(imp / parse).toFixed(1)}× the parse; budget 2000 ms: ${Math.max(...imports) < 2000 ? "met" : "MISSED"}`,
    );
  }

  // 2. Breach check at 10,000 reports.
  const header =
    "Name of Covered Entity,State,Covered Entity Type,Individuals Affected,Breach Submission Date,Type of Breach,Location of Breached Information,Business Associate Present,Web Description";
  const states = ["OR", "WA", "CA", "OH", "TX", "NY", "FL", "MI", "VA", "NC"];
  const words = [
    "Valley",
    "Family",
    "Pediatric",
    "Dental",
    "Orthopedic",
    "Behavioral",
    "Community",
    "Eye",
    "Heart",
    "Women's",
  ];
  const kinds = ["Clinic", "Medicine", "Associates", "Health Center", "Care", "Group"];
  const name = (i: number) =>
    `${words[i % 10]} ${words[Math.floor(i / 10) % 10]} ${kinds[i % 6]} ${i}${i % 3 === 0 ? ", LLC" : i % 3 === 1 ? ", P.C." : ""}`;
  const rows = Array.from({ length: BREACHES }, (_, i) =>
    [
      `"${name(i)}"`,
      states[i % 10],
      "Healthcare Provider",
      500 + (i % 9000),
      `${(i % 12) + 1}/${(i % 28) + 1}/${2015 + (i % 10)}`,
      "Hacking/IT Incident",
      "Network Server",
      i % 2 ? "Yes" : "No",
      "",
    ].join(","),
  );
  let t = performance.now();
  const imported = await importHhsBreaches(deps, feed(`${header}\n${rows.join("\n")}\n`));
  console.log(`\nHHS breach import: ${imported.records} reports in ${ms(performance.now() - t)}`);
  const ids = (await store.db.selectFrom("hhs_breaches").select("id").execute()).map((r) => r.id);
  const checks: number[] = [];
  const reads: number[] = [];
  let matched = 0;
  for (let n = 0; n < LOOKUPS; n++) {
    const i = (n * 7919) % BREACHES;
    // Half look up a reported entity (as its practice would be named: no legal suffix), half a name never reported.
    const query =
      n % 2 === 0
        ? { name: name(i).replace(/, (LLC|P\.C\.)$/, ""), state: states[i % 10]! }
        : { name: `Nowhere Practice ${n}`, state: "OR" };
    t = performance.now();
    const r = await breachCheck(deps, query, null);
    checks.push(performance.now() - t);
    if (r.matches.length > 0) matched++;
    t = performance.now();
    await store.db
      .selectFrom("hhs_breaches")
      .selectAll()
      .where("id", "=", ids[n % ids.length]!)
      .executeTakeFirst();
    reads.push(performance.now() - t);
  }
  if (matched !== LOOKUPS / 2) throw new Error(`expected ${LOOKUPS / 2} lookups to match, ${matched} did`);
  console.log(`breach check at ${BREACHES} reports, ${LOOKUPS} lookups (half matching)`);
  console.log(`  baseline primary-key read     p50 ${ms(pct(reads, 50))}, p99 ${ms(pct(reads, 99))}`);
  console.log(
    `  breach check (hipaa.breach)   p50 ${ms(pct(checks, 50))}, p99 ${ms(pct(checks, 99))}  → p99 ${(pct(checks, 99) / pct(reads, 99)).toFixed(1)}× the read; budget 20 ms: ${pct(checks, 99) < 20 ? "met" : "MISSED"}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "hcs-bench-intel-"));
const sqlite = openStore({ engine: "sqlite", file: join(dir, "bench.sqlite") });
try {
  await sqlite.migrate();
  await bench("SQLite (embedded, WAL)", sqlite);
} finally {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}

// PostgreSQL as the tests reach it (DATABASE_URL, else the local test database), in a schema of its own.
const unreachable = await postgresUnavailableReason();
if (unreachable) {
  console.log(`\n[skip] PostgreSQL: ${unreachable}`);
} else {
  const { url, schema, drop } = await createTestSchema();
  const store = openStore({ engine: "postgres", url, schema });
  try {
    await store.migrate();
    await bench(`PostgreSQL (${new URL(TEST_PG_URL).host}, schema of its own)`, store);
  } finally {
    await store.close();
    await drop();
  }
}
