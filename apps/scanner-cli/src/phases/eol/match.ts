/**
 * End-of-life matching against the bundled endoflife.date snapshot (dataset.json; provenance in DATASET.md).
 * Pure: the dataset is part of the package and validated once when this module loads; nothing here reads
 * files, the network or the clock — callers pass `today`.
 */
import { z } from "zod";
import rawDataset from "./dataset.json" with { type: "json" };

export { identifyProduct, type ProductRef } from "./normalize.js";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day (the regex alone would accept 2023-02-30). */
const isoDate = z
  .string()
  .regex(ISO_DATE)
  .refine((s) => new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), { message: "not a calendar date" });

/**
 * `eol` and `extended` follow endoflife.date's current convention for "end of …" fields: a date is the last
 * day of that support; `false` means it has not ended and no end date is announced; `true` means it has ended
 * on an unknown date; `null` means the source records no such phase (for `extended`: no extended support).
 */
const endValue = z.union([isoDate, z.boolean()]).nullable();

export const EolCycleSchema = z
  .object({
    cycle: z.string().min(1),
    release: isoDate.nullable(),
    eol: endValue,
    extended: endValue,
    /** endoflife.date's `latest`; kept only where it identifies a build (Windows, SQL Server). */
    latest: z.string().min(1).optional(),
    /** endoflife.date's release label; kept only where products are named by year (SQL Server). */
    label: z.string().min(1).optional(),
  })
  .strict();

export const EolDatasetSchema = z
  .object({
    source: z.string().min(1),
    /** endoflife.date's MIT notice, which must travel with every copy of the data. */
    license: z.string().includes("Permission is hereby granted"),
    snapshot_date: isoDate,
    products: z.record(
      z.string().regex(/^[a-z0-9-]+$/),
      z
        .object({
          title: z.string().min(1),
          /** Newest release date recorded in this product's page: how current that page was when read. */
          as_of: isoDate,
          /** Commit of endoflife-date/endoflife.date whose products/<id>.md this product was read from. */
          commit: z.string().regex(/^[0-9a-f]{40}$/),
          cycles: z.array(EolCycleSchema).min(1),
        })
        .strict(),
    ),
  })
  .strict();

export type EolCycle = z.infer<typeof EolCycleSchema>;
export type EolDataset = z.infer<typeof EolDatasetSchema>;
type EolProduct = EolDataset["products"][string];

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Validated at load so that a bad refresh of dataset.json fails loudly in tests, not silently in a clinic; frozen
 * so no caller can change the answers other callers get.
 */
export const EOL_DATASET: EolDataset = deepFreeze(EolDatasetSchema.parse(rawDataset));

/** The snapshot date of the bundled data; results record it so a reader knows how current the verdict is. */
export const EOL_DATASET_DATE: string = EOL_DATASET.snapshot_date;

export type EolStatus = "supported" | "eol" | "unknown";

export interface EolMatch {
  readonly product: string;
  /** The endoflife.date cycle id (e.g. `22.04`, `10-22h2`, `2012-r2`); empty when none matched. */
  readonly cycle: string;
  /** End of regular (security) support; null when not dated (ongoing, ended on an unknown date, or unknown). */
  readonly eol: string | null;
  readonly status: EolStatus;
  /**
   * Days from `today` (UTC) to the end of the support that currently applies: the extended-support end while in
   * extended support, otherwise `eol`. Negative once past (days since eol); null when that end is not dated.
   */
  readonly daysLeft: number | null;
  /** Documented end of extended support (ESU, ESM, ELS, LTS add-ons…), when dated. */
  readonly extendedUntil: string | null;
  /** Supported only through a documented extended-support phase, which usually needs a subscription. */
  readonly inExtendedSupport: boolean;
  /** How current the product's data is (see EolDataset `as_of`); null for unknown products. */
  readonly asOf: string | null;
}

/** Product ids and normalized versions are short; the cap keeps work on hostile input constant. */
const MAX_ID_LENGTH = 64;
const DAY_MS = 86_400_000;

function dayNumber(iso: string): number {
  return Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
}

/** The UTC calendar day of `today`, so results do not depend on the machine's time zone. */
function todayNumber(today: Date): number | null {
  const t = today instanceof Date ? today.getTime() : Number.NaN;
  return Number.isFinite(t) ? Math.floor(t / DAY_MS) : null;
}

function text(value: unknown): string {
  return typeof value === "string" ? value.slice(0, MAX_ID_LENGTH).trim().toLowerCase() : "";
}

/** The leading major.minor.patch numbers of a version or build string (`10.0.19045.3803` → [10, 0, 19045]). */
function numbers(version: string): number[] {
  const m = /^(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?/.exec(version);
  if (!m) return [];
  return [m[1], m[2], m[3]].filter((p): p is string => p !== undefined).map(Number);
}

/** Ordering of end values for "the cycle supported longest": ongoing beats any date, which beats ended/none. */
function endRank(value: EolCycle["eol"]): number {
  if (value === false) return Number.POSITIVE_INFINITY;
  if (typeof value === "string") return dayNumber(value);
  return Number.NEGATIVE_INFINITY;
}

function longestSupported(cycles: readonly EolCycle[]): EolCycle | undefined {
  let best: EolCycle | undefined;
  for (const c of cycles) if (!best || endRank(c.eol) > endRank(best.eol)) best = c;
  return best;
}

/**
 * The longest cycle id that is the whole version or a prefix of it ending at a component boundary: `3.10.12`
 * matches `3.10`, not `3.1`; `1.1.1w` matches `1.1.1`; `2023` does not match `2`.
 */
function byPrefix(cycles: readonly EolCycle[], version: string): EolCycle | undefined {
  let best: EolCycle | undefined;
  for (const c of cycles) {
    const id = c.cycle.toLowerCase();
    if (!version.startsWith(id)) continue;
    const next = version.charAt(id.length);
    if (next !== "" && /\d/.test(next)) continue;
    if (!best || id.length > best.cycle.length) best = c;
  }
  return best;
}

const WINDOWS_EDITIONS = /-(iot-lts|e-lts|e|w|iot)$/;
/** Which cycle suffixes fit an edition, best first; "" is a cycle shared by all editions (e.g. `10-22h2`). */
const WINDOWS_EDITION_PREFERENCE: Readonly<Record<string, readonly string[]>> = {
  w: ["w", ""],
  e: ["e", ""],
  "e-lts": ["e-lts", "e", ""],
  "iot-lts": ["iot-lts", "e-lts", "e", ""],
};

/**
 * Windows 10 and 11 cycles are identified by build (the `latest` field, e.g. 10.0.19045 → 10-22h2) and split by
 * servicing track (Home/Pro vs Enterprise/Education vs LTSC). Before Windows 10 the kernel version alone names the
 * release (6.1 → 7 SP1). A build the snapshot does not know (a newer feature update, an Insider build) stays
 * unknown rather than being guessed.
 */
function windowsCycle(cycles: readonly EolCycle[], version: string): EolCycle | undefined {
  const [build = "", edition = "w"] = version.split("+", 2);
  const wanted = numbers(build);
  const [major, minor, patch] = wanted;
  if (major === undefined || minor === undefined) return undefined;
  if (major >= 10 && patch === undefined) return undefined;
  const candidates = cycles.filter((c) => {
    const got = numbers(c.latest ?? "");
    return got[0] === major && got[1] === minor && (major < 10 || got[2] === patch);
  });
  const preference = WINDOWS_EDITION_PREFERENCE[edition] ?? WINDOWS_EDITION_PREFERENCE.w ?? [];
  for (const suffix of preference) {
    const hit = candidates.find((c) => (WINDOWS_EDITIONS.exec(c.cycle)?.[1] ?? "") === suffix);
    if (hit) return hit;
  }
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * Windows Server by release name (`2012-r2`) or by build. A name without its service pack (`2008`) takes the
 * newest service pack, and a build shared by an LTSC release and a semi-annual one (10.0.17763: 2019 and 1809)
 * takes the LTSC release: both are the longest-supported reading, so an `eol` verdict is certain.
 */
function windowsServerCycle(cycles: readonly EolCycle[], version: string): EolCycle | undefined {
  const wanted = numbers(version);
  if (wanted.length === 3 && /^\d+\.\d+\.\d+$/.test(version)) {
    const candidates = cycles.filter((c) => {
      const got = numbers(c.latest ?? "");
      return got[0] === wanted[0] && got[1] === wanted[1] && got[2] === wanted[2];
    });
    const ltsc = candidates.filter((c) => !/-(sac|ac)$/.test(c.cycle));
    return longestSupported(ltsc.length > 0 ? ltsc : candidates);
  }
  return longestSupported(cycles.filter((c) => c.cycle === version || c.cycle.startsWith(`${version}-sp`)));
}

/**
 * SQL Server cycles are a major version plus service pack (`13.0-sp3`), each with the newest build it received.
 * A build belongs to the first service pack whose newest build is at or above it; a build newer than the snapshot
 * belongs to the newest one. A marketing year (`2016`, `2008 r2`) without a build takes the newest service pack.
 */
function sqlServerCycle(cycles: readonly EolCycle[], version: string): EolCycle | undefined {
  const byLatestBuild = (a: EolCycle, b: EolCycle): number =>
    compareNumbers(numbers(a.latest ?? ""), numbers(b.latest ?? ""));
  const year = /^(\d{4})( r2)?$/.exec(version);
  if (year) {
    const named = cycles.filter((c) => (c.label ?? "").toLowerCase().replace(/ sp\w+$/, "") === version);
    return named.sort(byLatestBuild).at(-1);
  }
  const wanted = numbers(version);
  if (wanted.length < 2) return undefined;
  const sameMajor = cycles
    .filter((c) => {
      const base = numbers(c.cycle);
      return base[0] === wanted[0] && base[1] === wanted[1];
    })
    .sort(byLatestBuild);
  if (wanted.length < 3) return sameMajor.at(-1);
  return sameMajor.find((c) => compareNumbers(numbers(c.latest ?? ""), wanted) >= 0) ?? sameMajor.at(-1);
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function findCycle(productId: string, product: EolProduct, version: string): EolCycle | undefined {
  if (version === "") return undefined;
  switch (productId) {
    case "windows":
      return windowsCycle(product.cycles, version);
    case "windows-server":
      return windowsServerCycle(product.cycles, version);
    case "mssqlserver":
      return sqlServerCycle(product.cycles, version);
    default:
      return byPrefix(product.cycles, version);
  }
}

function unknown(product: string, cycle: string, asOf: string | null): EolMatch {
  return {
    product,
    cycle,
    eol: null,
    status: "unknown",
    daysLeft: null,
    extendedUntil: null,
    inExtendedSupport: false,
    asOf,
  };
}

/**
 * The support status of a product version on `today`. The eol date is the last supported day (endoflife.date
 * counts a cycle as end-of-life only after it). Extended support counts as supported only when the dataset
 * documents its end date; an undated or ended extended phase does not.
 */
export function matchEndOfLife(item: { product: string; version: string }, today: Date): EolMatch {
  const productId = text(item?.product);
  const version = text(item?.version).replace(/^v(?=\d)/, "");
  const product = Object.hasOwn(EOL_DATASET.products, productId) ? EOL_DATASET.products[productId] : undefined;
  if (!product) return unknown(productId, "", null);
  const cycle = findCycle(productId, product, version);
  const day = todayNumber(today);
  if (!cycle || day === null) return unknown(productId, cycle?.cycle ?? "", product.as_of);

  const eol = typeof cycle.eol === "string" ? cycle.eol : null;
  const extendedUntil = typeof cycle.extended === "string" ? cycle.extended : null;
  const base = { product: productId, cycle: cycle.cycle, eol, extendedUntil, asOf: product.as_of };

  if (cycle.eol === false) return { ...base, status: "supported", daysLeft: null, inExtendedSupport: false };
  if (cycle.eol === null) return { ...base, status: "unknown", daysLeft: null, inExtendedSupport: false };
  if (eol !== null && dayNumber(eol) >= day) {
    return { ...base, status: "supported", daysLeft: dayNumber(eol) - day, inExtendedSupport: false };
  }
  // Regular support is over (dated or `true`): only a documented, still-running extended phase keeps it supported.
  if (extendedUntil !== null && dayNumber(extendedUntil) >= day) {
    return { ...base, status: "supported", daysLeft: dayNumber(extendedUntil) - day, inExtendedSupport: true };
  }
  return { ...base, status: "eol", daysLeft: eol === null ? null : dayNumber(eol) - day, inExtendedSupport: false };
}
