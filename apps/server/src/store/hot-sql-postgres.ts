import { CompiledQuery } from "kysely";
import { type HotExecutor, type HotSql, ON_CONNECTION, toParam } from "./hot-sql.js";

// In a module of its own: hot-sql.ts is also loaded by worker threads, which must not load Kysely (its
// ~7 MiB of heap in each isolate that imports it; docs/performance.md#memory).

/** `?` placeholders to PostgreSQL's `$1, $2, …` (our hot statements never contain a literal question mark). */
export function toDollarPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** PostgreSQL: the same text through Kysely's executor (the transaction's connection inside a batch). */
export function postgresHotSql(): HotSql {
  const texts = new Map<string, string>();
  return {
    engine: "postgres",
    async all<T>(executor: HotExecutor, text: string, params: readonly unknown[]): Promise<T[]> {
      if (executor === ON_CONNECTION) throw new Error("PostgreSQL's hot statements run through a Kysely executor");
      let pgText = texts.get(text);
      if (!pgText) {
        pgText = toDollarPlaceholders(text);
        texts.set(text, pgText);
      }
      const result = await executor.executeQuery<T>(CompiledQuery.raw(pgText, params.map(toParam)));
      return result.rows as T[];
    },
  };
}
