import { MAX_JSON_DEPTH } from "@hcs/protocol";
import { ServiceError } from "../errors.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON bytes nest arrays and objects more than `max` levels deep: one pass counting brackets outside
 * strings, which stops at the first level too deep and builds nothing. JSON.parse builds any depth it is given —
 * 10 MiB of `[` held the event loop 1.7–3.3 s — so a body is checked with this before it is parsed. UTF-8
 * continuation bytes are all ≥ 0x80 and never look like a bracket or a quote. Not a validator: bytes that are not
 * JSON are left to JSON.parse.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const d = bytes[i];
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** The refusal of a body nested too deep: `invalid_json` with `details.max_depth`. */
export function tooDeepError(subject: string): ServiceError {
  return new ServiceError(
    "invalid_json",
    `${subject} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
    { max_depth: MAX_JSON_DEPTH },
  );
}

/**
 * Parses untrusted JSON bytes: `invalid_json` when they nest deeper than MAX_JSON_DEPTH (checked before anything is
 * built) or are not JSON. `subject` words the messages ("the request body").
 */
export function parseJsonBytes(raw: Buffer, subject: string): unknown {
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) throw tooDeepError(subject);
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    throw new ServiceError("invalid_json", `${subject} is not valid JSON`);
  }
}
