import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ConfigError } from "../config.js";
import { writeFileAtomic } from "../util/files.js";
import { assertOwnerOnly } from "../util/private-files.js";

/**
 * What `hcs-server serve` started with, kept in its data directory so that every other command run on that directory
 * uses the same store and builds the same links (docs/operations.md#one-configuration-the-data-directorys-serverjson).
 * Before, each command read only its own environment: `users invite` in a shell without `HCS_PORT=8444` printed an
 * 8443 link, and the first start's next steps, pasted without `DATABASE_URL`, opened a new empty SQLite store.
 */
export const SERVER_RECORD_FILE = "server.json";

const ServerRecordSchema = z.object({
  /** The URL clients reach the server at: HCS_PUBLIC_URL, or the bound address and port. */
  public_url: z.url({ protocol: /^https$/ }),
  /** DATABASE_URL as the server had it (it may hold a password: the file is owner-only, as master.key is). */
  database_url: z
    .string()
    .regex(/^postgres(ql)?:\/\//)
    .nullable(),
  /** Where the master key came from: HCS_MASTER_KEY is never written down, so other commands must be given it too. */
  master_key: z.enum(["data_dir", "environment"]),
  server_version: z.string(),
  started_at: z.iso.datetime(),
});
export type ServerRecord = z.infer<typeof ServerRecordSchema>;

/** Writes the record (owner-only: it may hold the database password), replacing the previous one at once. */
export function writeServerRecord(dataDir: string, record: ServerRecord): void {
  writeFileAtomic(join(dataDir, SERVER_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`, 0o600);
}

/**
 * The record in `dataDir`, or null when no server has started there yet. One that cannot be read as a record, or is
 * readable by others, stops the command (exit 2) rather than be ignored: ignoring it is how a command ends up on
 * another store.
 */
export function readServerRecord(dataDir: string): ServerRecord | null {
  const file = join(dataDir, SERVER_RECORD_FILE);
  if (!existsSync(file)) return null;
  assertOwnerOnly(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    parsed = undefined;
  }
  const record = ServerRecordSchema.safeParse(parsed);
  if (!record.success)
    throw new ConfigError(
      "HCS_DATA_DIR",
      `${file} is not a server record hcs-server can read; remove it and start hcs-server serve to write it again`,
    );
  return record.data;
}
