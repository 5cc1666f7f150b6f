import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { PhaseOutcome } from "../phase.js";

/**
 * The phase looked and reports what it saw. `notAssessed` names the checks it could not make (check → reason),
 * recorded in its facts under `not_assessed` so that the report and the upload say so instead of reading them as
 * passed.
 */
export function ok(
  facts: JsonObject,
  findings: FindingInput[] = [],
  notAssessed: Record<string, string | null | undefined> = {},
): PhaseOutcome {
  const gaps = Object.fromEntries(Object.entries(notAssessed).filter((e): e is [string, string] => Boolean(e[1])));
  return { status: "ok", facts: Object.keys(gaps).length > 0 ? { ...facts, not_assessed: gaps } : facts, findings };
}

/** This OS or machine lacks the concept or the tool the check needs; `reason` says which. */
export function unsupported(reason: string, facts: JsonObject = {}): PhaseOutcome {
  return { status: "unsupported", facts, findings: [], reason };
}

/** The check exists here but could not be made this time (no privileges, nothing in scope). */
export function skipped(reason: string, facts: JsonObject = {}): PhaseOutcome {
  return { status: "skipped", facts, findings: [], reason };
}

/** The check broke: an unexpected output or error, with a code the operator can look up. */
export function failed(code: string, message: string, facts: JsonObject = {}): PhaseOutcome {
  return { status: "failed", facts, findings: [], reason: message, error: { code, message } };
}
