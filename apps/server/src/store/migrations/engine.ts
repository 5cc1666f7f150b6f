import type { CreateTableBuilder } from "kysely";

export type Engine = "sqlite" | "postgres";

/** Adds an auto-increment integer primary key `id` in the engine's own idiom. */
export function autoIdColumn<T extends string>(
  engine: Engine,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, "id"> {
  return engine === "sqlite"
    ? table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    : table.addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity());
}
