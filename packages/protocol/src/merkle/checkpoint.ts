// C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the signed statement of a log's size and tree head —
// origin line, decimal tree size, base64 root hash, then optional extension lines — carried as a signed note.

import { base64Decode, base64Encode } from "../encoding.js";
import { HASH_BYTES } from "./tree.js";

export interface Checkpoint {
  /** The log's unique name (by convention a schema-less URL, e.g. `hcs.example.org/audit`). */
  readonly origin: string;
  readonly size: number;
  readonly rootHash: Uint8Array;
  /** Further lines the log adds (each non-empty); this log writes none. */
  readonly extensions: readonly string[];
}

/** The checkpoint body: the text a signed note signs. */
export function formatCheckpoint(c: Checkpoint): string {
  if (c.origin.length === 0 || /[\n\r]/.test(c.origin)) throw new Error("a checkpoint origin is one non-empty line");
  if (!Number.isSafeInteger(c.size) || c.size < 0) throw new Error("a checkpoint size is a non-negative integer");
  if (c.rootHash.length !== HASH_BYTES) throw new Error(`a checkpoint root hash is ${HASH_BYTES} bytes`);
  if (c.extensions.some((e) => e.length === 0 || /[\n\r]/.test(e)))
    throw new Error("a checkpoint extension is one non-empty line");
  return [c.origin, String(c.size), base64Encode(c.rootHash), ...c.extensions].map((l) => `${l}\n`).join("");
}

/** Parses a checkpoint body; null unless every line is as the format says (decimal without leading zeros…). */
export function parseCheckpoint(text: string): Checkpoint | null {
  if (!text.endsWith("\n")) return null;
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3) return null;
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin.length === 0 || !/^(0|[1-9][0-9]*)$/.test(sizeText)) return null;
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) return null;
  const rootHash = base64Decode(rootText);
  if (!rootHash || rootHash.length !== HASH_BYTES) return null;
  if (extensions.some((e) => e.length === 0)) return null;
  return { origin, size, rootHash, extensions };
}
