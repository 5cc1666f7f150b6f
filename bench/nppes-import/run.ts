// bench/nppes-import: the NPPES data file import (docs/onboarding.md#the-directory; results in
// docs/performance.md#nppes-import) — target: the full file (~8 million records, ~9 GB) in under 15 minutes on a
// 2-core machine, with flat memory. Generated records in the real 330-column layout (invented names, ~1.17 KB a
// record like the real file's ~1.1 KB), NPPES_BENCH_ROWS of them (default 200,000), in a file on disk.
// In the same run:
//  - baseline: the raw CSV tokenizer alone over the same file, decoding the same columns (what reading costs);
//  - the import (`importDirectoryFile`, what `hcs-server data import nppes` runs): tokenize, validate, upsert in
//    committed batches, on an embedded SQLite store, then on PostgreSQL (DATABASE_URL, else the local test
//    database; skipped with a printed reason when unreachable).
// Prints records/s of each, the import's ratio to the baseline, the projected time of 8 million records, and the
// resident memory at each quarter of the import (flat: it does not grow with the file).
import { randomBytes } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CsvByteStream } from "../../apps/server/src/directory/csv-stream.js";
import { nppesColumns } from "../../apps/server/src/directory/nppes-csv.js";
import { NPPES_COLUMNS } from "../../apps/server/src/directory/nppes-layout.js";
import { createSecretBox } from "../../apps/server/src/secrets/master-key.js";
import { importDirectoryFile } from "../../apps/server/src/services/directory/import-file.js";
import { openStore, type Store } from "../../apps/server/src/store/store.js";
import { writeGeneratedNppesFile } from "../../apps/server/src/test-support/nppes-generator.js";
import {
  createTestSchema,
  postgresUnavailableReason,
  TEST_PG_URL,
} from "../../apps/server/src/test-support/postgres.js";

const ROWS = Number(process.env.NPPES_BENCH_ROWS ?? 200_000);
const FULL = 8_000_000;
const mib = (b: number) => `${(b / 1_048_576).toFixed(0)} MiB`;
const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString("en-US")} records/s`;

async function tokenizeOnly(path: string): Promise<{ records: number; seconds: number; rss: number }> {
  const cols = nppesColumns(NPPES_COLUMNS);
  const t = performance.now();
  let records = 0;
  let touched = 0;
  const s = new CsvByteStream({ wanted: cols.wanted, maxRecordBytes: 1 << 20 });
  const take = (r: { fields: readonly (string | undefined)[] }) => {
    records++;
    touched += r.fields[0]?.length ?? 0;
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) s.push(chunk as Buffer, take);
  s.end(take);
  if (touched === 0) throw new Error("nothing read");
  return { records: records - 1, seconds: (performance.now() - t) / 1000, rss: process.memoryUsage().rss };
}

async function importInto(engine: string, store: Store, path: string, baseline: number): Promise<void> {
  await store.migrate();
  const deps = { store, now: () => new Date(), secrets: createSecretBox(randomBytes(32)) };
  const rssAt: string[] = [];
  let next = 0.25;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const t = performance.now();
  const report = await importDirectoryFile(deps, "nppes", path, {
    progress: (p) => {
      while (p.bytes / p.total_bytes >= next && next <= 1) {
        rssAt.push(`${Math.round(next * 100)}% ${mib(process.memoryUsage().rss)}`);
        next += 0.25;
      }
    },
  });
  const seconds = (performance.now() - t) / 1000;
  if (report.records !== ROWS) throw new Error(`imported ${report.records} of ${ROWS}`);
  const projected = (FULL / (report.records / seconds) / 60).toFixed(1);
  console.log(`\n== ${engine} ==`);
  console.log(
    `  import           ${rate(report.records, seconds)} (${seconds.toFixed(1)} s) → ${(report.records / seconds / baseline).toFixed(2)}× the tokenizer's rate`,
  );
  console.log(
    `  8M records       ${projected} min projected; target < 15 min: ${Number(projected) < 15 ? "met" : "MISSED"}`,
  );
  console.log(`  resident memory  before ${mib(rssBefore)}; at ${rssAt.join(", ")}`);
}

const dir = mkdtempSync(join(tmpdir(), "hcs-bench-nppes-"));
try {
  const path = join(dir, "npidata_pfile_bench.csv");
  let t = performance.now();
  await writeGeneratedNppesFile(path, ROWS);
  const size = statSync(path).size;
  console.log(
    `${ROWS.toLocaleString("en-US")} generated records, ${mib(size)} (${(size / ROWS).toFixed(0)} bytes a record), written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const base = await tokenizeOnly(path);
  const baseline = base.records / base.seconds;
  console.log(
    `  baseline tokenizer alone  ${rate(base.records, base.seconds)} (${base.seconds.toFixed(1)} s, ${(size / 1_048_576 / base.seconds).toFixed(0)} MiB/s), resident ${mib(base.rss)}`,
  );

  const sqliteDir = mkdtempSync(join(tmpdir(), "hcs-bench-nppes-db-"));
  const sqlite = openStore({ engine: "sqlite", file: join(sqliteDir, "bench.sqlite") });
  try {
    await importInto("sqlite", sqlite, path, baseline);
  } finally {
    await sqlite.close();
    rmSync(sqliteDir, { recursive: true, force: true });
  }

  const unavailable = await postgresUnavailableReason();
  if (unavailable) console.log(`\n[skip] postgres: ${unavailable}`);
  else {
    const { schema, drop } = await createTestSchema();
    const pg = openStore({ engine: "postgres", url: TEST_PG_URL, schema });
    try {
      t = performance.now();
      await importInto("postgres", pg, path, baseline);
    } finally {
      await pg.close();
      await drop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
