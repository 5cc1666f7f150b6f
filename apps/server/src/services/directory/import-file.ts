import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import type { Transaction } from "kysely";
import { CsvByteStream, type CsvStreamRecord } from "../../directory/csv-stream.js";
import {
  type DirectoryEndpoint,
  endpointColumns,
  endpointFromCsv,
  nppesColumns,
  nuccColumns,
  providerFromNppesCsv,
  taxonomyFromNucc,
} from "../../directory/nppes-csv.js";
import type { DirectoryProvider, RecordRefusal } from "../../directory/provider.js";
import { parseRegistryAnswer } from "../../directory/registry-json.js";
import { FeedError } from "../../intel/feed-error.js";
import type { HotSql } from "../../store/hot-sql.js";
import type { Database } from "../../store/schema.js";
import type { AuditInTransaction } from "../audit.js";
import { iso, type ServiceDeps } from "../deps.js";
import { upsertEndpoints, upsertProviders, upsertTaxonomies } from "./write-batches.js";

/** The directory files an operator imports (`hcs-server data import nppes|nppes-endpoints|nucc-taxonomy`). */
export const DIRECTORY_FILES = ["nppes", "nppes_endpoints", "nucc_taxonomy"] as const;
export type DirectoryFile = (typeof DIRECTORY_FILES)[number];
/** What a directory_imports row records: the file kinds, and the registry API's JSON (read by `nppes` too). */
export type DirectoryImportKind = DirectoryFile | "nppes_registry_json";

/** What one import run did. */
export interface DirectoryImportReport {
  readonly import_id: number;
  readonly kind: DirectoryImportKind;
  readonly source: string;
  /** Records written in the whole import (this run and the runs it resumed). */
  readonly records: number;
  readonly skipped: number;
  /** Where this run started when it resumed a crashed import (bytes into the file); null when it started fresh. */
  readonly resumed_at_byte: number | null;
  /** False when this exact file had been imported completely before: nothing was read or written. */
  readonly changed: boolean;
  readonly bytes: number;
  readonly seconds: number;
  /** The first refused records: 1-based record number (header = 1), column and reason. */
  readonly refusals: readonly { readonly row: number; readonly field: string; readonly reason: string }[];
}

/** How far an import has got, for a progress line. */
export interface DirectoryImportProgress {
  readonly kind: DirectoryImportKind;
  readonly bytes: number;
  readonly total_bytes: number;
  readonly records: number;
  readonly skipped: number;
  readonly seconds: number;
}

export interface DirectoryImportOptions {
  /** Records per committed batch (each commit records how far the file has been read). */
  readonly batchRecords?: number;
  /** Told after each committed batch. */
  readonly progress?: (p: DirectoryImportProgress) => void;
  /** Written in the import's last transaction (the operator's audit event). */
  readonly auditIn?: AuditInTransaction<DirectoryImportReport>;
  /** Called after each committed batch; a throw there stops the import as a crash would (tests). */
  readonly afterBatch?: (committedBytes: number) => void;
}

const DEFAULT_BATCH = 2_000;
/** Bytes read per chunk from the file. */
const CHUNK_BYTES = 1 << 20;
/** No real record of any of these files is near this long; a longer one is a broken file. */
const MAX_RECORD_BYTES = 1 << 20;
/** The registry API's answers are small; a larger "answer" is not one. */
const MAX_JSON_BYTES = 16 << 20;
const REFUSALS_KEPT = 20;

/** The file's size and the SHA-256 of its first MiB: what recognises the same file when an import resumes. */
async function fingerprintOf(path: string): Promise<{ size: number; fingerprint: string; firstByte: number | null }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (err) {
    throw new FeedError("feed_empty", `cannot open ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(Math.min(size, CHUNK_BYTES));
    await handle.read(head, 0, head.length, 0);
    const firstByte = head.find(
      (b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0xef && b !== 0xbb && b !== 0xbf,
    );
    return { size, fingerprint: createHash("sha256").update(head).digest("hex"), firstByte: firstByte ?? null };
  } finally {
    await handle.close();
  }
}

/** The first record of a CSV file (its header), read on its own. */
async function readHeader(path: string): Promise<string[]> {
  const tokens = new CsvByteStream({ wanted: null, maxRecordBytes: MAX_RECORD_BYTES });
  let header: string[] | null = null;
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream) {
      tokens.push(chunk as Buffer, (r) => {
        header ??= r.fields.map((f) => f ?? "");
      });
      if (header) break;
    }
    if (!header) tokens.end((r) => (header ??= r.fields.map((f) => f ?? "")));
  } finally {
    stream.destroy();
  }
  if (!header) throw new FeedError("feed_empty", `${path} is empty`);
  return header;
}

/** One kind of CSV: how its header is read, how a record becomes an item, and how a batch of items is written. */
interface CsvKind<T> {
  readonly read: (header: readonly (string | undefined)[]) => {
    readonly wanted: ReadonlySet<number>;
    readonly count: number;
    readonly item: (
      fields: readonly (string | undefined)[],
    ) => { ok: true; value: T } | { ok: false; refusal: RecordRefusal };
  };
  readonly write: (trx: Transaction<Database>, hot: HotSql, items: readonly T[], importId: number) => Promise<void>;
}

const CSV_KINDS: { readonly [K in DirectoryFile]: CsvKind<unknown> } = {
  nppes: {
    read(header) {
      const cols = nppesColumns(header);
      return {
        wanted: cols.wanted,
        count: cols.count,
        item: (f) => {
          const p = providerFromNppesCsv(f, cols);
          return p.ok ? { ok: true, value: p.provider } : p;
        },
      };
    },
    write: (trx, hot, items, importId) =>
      upsertProviders(trx, hot, items as DirectoryProvider[], "nppes_csv", importId),
  },
  nppes_endpoints: {
    read(header) {
      const cols = endpointColumns(header);
      return {
        wanted: cols.wanted,
        count: cols.count,
        item: (f) => {
          const e = endpointFromCsv(f, cols);
          return e.ok ? { ok: true, value: e.endpoint } : e;
        },
      };
    },
    write: (trx, _hot, items, importId) => upsertEndpoints(trx, items as DirectoryEndpoint[], importId),
  },
  nucc_taxonomy: {
    read(header) {
      const cols = nuccColumns(header);
      return {
        wanted: cols.wanted,
        count: cols.count,
        item: (f) => {
          const t = taxonomyFromNucc(f, cols);
          return t.ok ? { ok: true, value: [t.code, t.description] as const } : t;
        },
      };
    },
    write: (trx, _hot, items) => upsertTaxonomies(trx, new Map(items as [string, string][])),
  },
};

/**
 * Imports a directory file as CMS (or NUCC) publishes it — the NPPES data file (or an NPI Registry API answer, read
 * by `nppes` too), the endpoint file, the taxonomy code set — streaming it in batches, each committed with how far
 * the file has been read. Memory stays flat whatever the file's size: one chunk and one batch at a time. A run that
 * stops (a crash, a kill) leaves its import `running`; the next import of the same file resumes after the last
 * committed record. A file imported completely before is not read again. Writes are upserts by NPI, so re-importing
 * (or importing a newer month) never duplicates. Records that cannot be read are counted and skipped, the first few
 * named with their record number and column.
 */
export async function importDirectoryFile(
  deps: ServiceDeps,
  kind: DirectoryFile,
  path: string,
  options: DirectoryImportOptions = {},
): Promise<DirectoryImportReport> {
  const started = performance.now();
  const { size, fingerprint, firstByte } = await fingerprintOf(path);
  if (size === 0) throw new FeedError("feed_empty", `${path} is empty`);
  const recordKind: DirectoryImportKind = kind === "nppes" && firstByte === 0x7b /* { */ ? "nppes_registry_json" : kind;
  const db = deps.store.db;
  const previous = await db
    .selectFrom("directory_imports")
    .selectAll()
    .where("kind", "=", recordKind)
    .where("fingerprint", "=", fingerprint)
    .where("file_size", "=", size)
    .orderBy("id", "desc")
    .executeTakeFirst();
  const seconds = () => (performance.now() - started) / 1000;

  if (previous?.status === "completed") {
    const report: DirectoryImportReport = {
      import_id: Number(previous.id),
      kind: recordKind,
      source: path,
      records: previous.records,
      skipped: previous.skipped,
      resumed_at_byte: null,
      changed: false,
      bytes: 0,
      seconds: seconds(),
      refusals: JSON.parse(previous.detail).refusals ?? [],
    };
    if (options.auditIn) await db.transaction().execute((trx) => options.auditIn!(trx, report));
    return report;
  }

  const now = () => iso(deps.now());
  const importId =
    previous?.status === "running"
      ? Number(previous.id)
      : Number(
          (
            await db
              .insertInto("directory_imports")
              .values({
                kind: recordKind,
                source: path,
                file_size: size,
                fingerprint,
                committed_bytes: 0,
                records: 0,
                skipped: 0,
                status: "running",
                started_at: now(),
                updated_at: now(),
                completed_at: null,
                detail: JSON.stringify({ refusals: [] }),
              })
              .returning("id")
              .executeTakeFirstOrThrow()
          ).id,
        );
  const resumedAt = previous?.status === "running" && previous.committed_bytes > 0 ? previous.committed_bytes : null;
  const state = {
    records: previous?.status === "running" ? previous.records : 0,
    skipped: previous?.status === "running" ? previous.skipped : 0,
    refusals: (previous?.status === "running" ? JSON.parse(previous.detail).refusals : []) as {
      row: number;
      field: string;
      reason: string;
    }[],
    committed: resumedAt ?? 0,
  };
  const refuse = (row: number, refusal: RecordRefusal) => {
    state.skipped++;
    if (state.refusals.length < REFUSALS_KEPT) state.refusals.push({ row, ...refusal });
  };
  const progressRow = (trx: Transaction<Database>, done: boolean) =>
    trx
      .updateTable("directory_imports")
      .set({
        committed_bytes: state.committed,
        records: state.records,
        skipped: state.skipped,
        updated_at: now(),
        detail: JSON.stringify({ refusals: state.refusals }),
        ...(done ? { status: "completed" as const, completed_at: now() } : {}),
      })
      .where("id", "=", importId)
      .execute();
  const report = (): DirectoryImportReport => ({
    import_id: importId,
    kind: recordKind,
    source: path,
    records: state.records,
    skipped: state.skipped,
    resumed_at_byte: resumedAt,
    changed: true,
    bytes: size - (resumedAt ?? 0),
    seconds: seconds(),
    refusals: state.refusals,
  });

  if (recordKind === "nppes_registry_json") {
    if (size > MAX_JSON_BYTES)
      throw new FeedError("feed_too_large", `${path} is larger than 16 MiB: not an NPI Registry API answer`);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path, "utf8"));
    } catch {
      throw new FeedError("feed_malformed", `${path} is not valid JSON`);
    }
    const answer = parseRegistryAnswer(json);
    const providers: DirectoryProvider[] = [];
    for (const r of answer.records) {
      if (r.ok) providers.push(r.provider);
      else refuse(r.index, r.refusal);
    }
    state.records = providers.length;
    state.committed = size;
    const done = report();
    await db.transaction().execute(async (trx) => {
      await upsertTaxonomies(trx, answer.taxonomies);
      await upsertProviders(trx, deps.store.hot, providers, "registry_api", importId);
      await progressRow(trx, true);
      await options.auditIn?.(trx, done);
    });
    return done;
  }

  const csv = CSV_KINDS[kind];
  const header = await readHeader(path);
  const reader = csv.read(header);
  const batchSize = options.batchRecords ?? DEFAULT_BATCH;
  const tokens = new CsvByteStream({
    wanted: reader.wanted,
    maxRecordBytes: MAX_RECORD_BYTES,
    startOffset: resumedAt ?? 0,
    rowsBefore: resumedAt === null ? 0 : 1 + state.records + state.skipped,
  });
  let batch: unknown[] = [];
  let batchEnd = state.committed;
  const onRecord = (r: CsvStreamRecord) => {
    batchEnd = r.end;
    if (r.row === 1 && resumedAt === null) return; // the header
    if (r.count !== reader.count) {
      refuse(r.row, { field: "record", reason: `${r.count} fields where the header has ${reader.count}` });
      return;
    }
    const item = reader.item(r.fields);
    if (item.ok) batch.push(item.value);
    else refuse(r.row, item.refusal);
  };
  const flush = async (last: boolean) => {
    const items = batch;
    batch = [];
    state.records += items.length;
    state.committed = batchEnd;
    const done = last ? report() : null;
    await db.transaction().execute(async (trx) => {
      if (items.length > 0) await csv.write(trx, deps.store.hot, items, importId);
      await progressRow(trx, last);
      if (done) await options.auditIn?.(trx, done);
    });
    options.progress?.({
      kind: recordKind,
      bytes: state.committed,
      total_bytes: size,
      records: state.records,
      skipped: state.skipped,
      seconds: seconds(),
    });
    if (!last) options.afterBatch?.(state.committed);
    return done;
  };
  const stream = createReadStream(path, { start: resumedAt ?? 0, highWaterMark: CHUNK_BYTES });
  try {
    for await (const chunk of stream) {
      tokens.push(chunk as Buffer, onRecord);
      if (batch.length >= batchSize) await flush(false);
    }
  } finally {
    stream.destroy();
  }
  tokens.end(onRecord);
  const done = await flush(true);
  return done!;
}

/** Every directory import's latest state, for `hcs-server data status`. */
export async function directoryImportStates(deps: ServiceDeps) {
  const db = deps.store.db;
  const latest = await db
    .selectFrom("directory_imports")
    .selectAll()
    .where("id", "in", (eb) =>
      eb
        .selectFrom("directory_imports")
        .select((e) => e.fn.max("id").as("id"))
        .groupBy("kind"),
    )
    .execute();
  const [providers, deactivated, endpoints, taxonomies] = await Promise.all([
    db
      .selectFrom("nppes_providers")
      .select((e) => e.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("nppes_providers")
      .select((e) => e.fn.countAll<number>().as("n"))
      .where("deactivated_on", "is not", null)
      .where((eb) => eb.or([eb("reactivated_on", "is", null), eb("reactivated_on", "<", eb.ref("deactivated_on"))]))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("nppes_endpoints")
      .select((e) => e.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("nppes_taxonomies")
      .select((e) => e.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const held: Record<DirectoryImportKind, string> = {
    nppes: `${Number(providers.n)} NPIs (${Number(deactivated.n)} deactivated)`,
    nppes_registry_json: `${Number(providers.n)} NPIs (${Number(deactivated.n)} deactivated)`,
    nppes_endpoints: `${Number(endpoints.n)} endpoints`,
    nucc_taxonomy: `${Number(taxonomies.n)} taxonomy descriptions`,
  };
  return (["nppes", "nppes_registry_json", "nppes_endpoints", "nucc_taxonomy"] as const).map((kind) => {
    const row = latest.find((r) => r.kind === kind);
    return {
      feed: kind,
      imported: row?.status === "completed",
      status: row?.status ?? "not imported",
      source: row?.source ?? null,
      records: row?.records ?? 0,
      skipped: row?.skipped ?? 0,
      imported_at: row?.completed_at ?? row?.updated_at ?? null,
      progress:
        row && row.status === "running"
          ? `${Math.floor((100 * row.committed_bytes) / Math.max(1, row.file_size))}% (resumes on the next import of the same file)`
          : null,
      summary: row
        ? `${held[kind]}; last ${row.status === "completed" ? "import" : "import (unfinished)"} ${row.source}`
        : `${kind} not imported`,
    };
  });
}
