import { z } from "zod";
import { FeedError } from "./feed-error.js";
import { readDate } from "./hhs-breach-csv.js";

/**
 * endoflife.date release cycles as the server keeps them: the same reading the scanner's bundled dataset uses —
 * `eol`/`extended` a date (last supported day), `false` (not ended, no date), `true` (ended, date unknown) or null
 * (no such phase).
 */
export interface EolCycle {
  readonly cycle: string;
  readonly release: string | null;
  readonly eol: string | boolean | null;
  readonly extended: string | boolean | null;
  readonly latest: string | null;
}

export interface EolProduct {
  readonly product: string;
  readonly cycles: EolCycle[];
}

const PRODUCT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_CYCLES = 2000;

const dayOrFlag = z.union([z.string(), z.boolean(), z.null()]).optional();

/** One cycle of the public API (`/api/<product>.json`): the fields read, others ignored. */
const ApiCycleSchema = z.looseObject({
  cycle: z.union([z.string(), z.number()]).transform(String),
  releaseDate: z.string().nullable().optional(),
  eol: dayOrFlag,
  extendedSupport: dayOrFlag,
  latest: z.union([z.string(), z.number()]).transform(String).nullable().optional(),
});

/** One release of the v1 API (`/api/v1/products/<product>`). */
const V1ReleaseSchema = z.looseObject({
  name: z.string(),
  releaseDate: z.string().nullable().optional(),
  isEol: z.boolean().optional(),
  eolFrom: z.string().nullable().optional(),
  eoesFrom: z.string().nullable().optional(),
  isEoes: z.boolean().nullable().optional(),
  latest: z.looseObject({ name: z.string() }).nullable().optional(),
});
const V1ProductSchema = z.looseObject({
  result: z.looseObject({ name: z.string(), releases: z.array(z.unknown()) }),
});

/**
 * Reads endoflife.date product data in its published forms: the API's cycle array for one product (`product`
 * names it), the v1 API's product document (it names itself), or a bundle `{ "<product>": [cycles…], … }` of
 * several. Faults name the product, the cycle index and the field.
 */
export function parseEolData(text: string, product?: string): EolProduct[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new FeedError("feed_malformed", `not JSON (${(err as Error).message.slice(0, 120)})`);
  }
  if (Array.isArray(raw)) {
    if (!product) throw new FeedError("feed_wrong_columns", "a cycle array names no product: give --product <id>");
    return [apiProduct(checkId(product), raw)];
  }
  const v1 = V1ProductSchema.safeParse(raw);
  if (v1.success) return [v1Product(checkId(product ?? v1.data.result.name), v1.data.result.releases)];
  if (raw === null || typeof raw !== "object")
    throw new FeedError("feed_schema_mismatch", "not endoflife.date data: expected a cycle array or an object");
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length === 0) throw new FeedError("feed_empty", "the file names no product");
  return entries.map(([id, cycles]) => {
    if (!Array.isArray(cycles))
      throw new FeedError("feed_schema_mismatch", `product "${id.slice(0, 64)}": expected an array of cycles`, {
        column: id.slice(0, 64),
      });
    return apiProduct(checkId(id), cycles);
  });
}

function checkId(id: string): string {
  if (!PRODUCT_ID.test(id))
    throw new FeedError("feed_bad_value", `"${id.slice(0, 64)}" is not an endoflife.date product id (a-z, 0-9, -)`);
  return id;
}

function apiProduct(product: string, cycles: unknown[]): EolProduct {
  if (cycles.length === 0) throw new FeedError("feed_empty", `product "${product}" has no cycles`);
  if (cycles.length > MAX_CYCLES)
    throw new FeedError("feed_too_large", `product "${product}" lists ${cycles.length} cycles (at most ${MAX_CYCLES})`);
  const seen = new Set<string>();
  return {
    product,
    cycles: cycles.map((c, index) => {
      const parsed = ApiCycleSchema.safeParse(c);
      const at = (field: string) => ({ row: index, column: field });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? "");
        throw new FeedError(
          "feed_schema_mismatch",
          `${product}[${index}], field "${field}": ${issue.message}`,
          at(field),
        );
      }
      const cycle = parsed.data.cycle.trim().toLowerCase().slice(0, 64);
      if (cycle === "")
        throw new FeedError("feed_bad_value", `${product}[${index}], field "cycle": blank`, at("cycle"));
      if (seen.has(cycle))
        throw new FeedError(
          "feed_duplicate_rows",
          `${product}[${index}]: cycle "${cycle}" is listed twice`,
          at("cycle"),
        );
      seen.add(cycle);
      return {
        cycle,
        release: day(parsed.data.releaseDate ?? null, product, index, "releaseDate", false) as string | null,
        eol: day(parsed.data.eol ?? null, product, index, "eol", true),
        extended: day(parsed.data.extendedSupport ?? null, product, index, "extendedSupport", true),
        latest: parsed.data.latest?.slice(0, 64) ?? null,
      };
    }),
  };
}

function v1Product(product: string, releases: unknown[]): EolProduct {
  const cycles = releases.map((r, index) => {
    const parsed = V1ReleaseSchema.safeParse(r);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new FeedError("feed_schema_mismatch", `${product}.releases[${index}]: ${issue.message}`, { row: index });
    }
    const p = parsed.data;
    return {
      cycle: p.name,
      releaseDate: p.releaseDate ?? null,
      eol: p.eolFrom ?? p.isEol ?? null,
      extendedSupport: p.eoesFrom ?? (p.isEoes === undefined ? null : p.isEoes),
      latest: p.latest?.name ?? null,
    };
  });
  return apiProduct(product, cycles);
}

function day(value: string | boolean | null, product: string, index: number, field: string, flags: boolean) {
  if (value === null || (typeof value === "boolean" && flags)) return value;
  if (typeof value === "string" && readDate(value) === value) return value;
  throw new FeedError(
    "feed_bad_value",
    `${product}[${index}], field "${field}": ${JSON.stringify(String(value).slice(0, 30))} is not a date (YYYY-MM-DD)${flags ? " or true/false" : ""}`,
    { row: index, column: field },
  );
}
