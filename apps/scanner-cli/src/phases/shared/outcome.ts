import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { PhaseOutcome } from "../phase.js";

/** The phase looked and reports what it saw. */
export function ok(facts: JsonObject, findings: FindingInput[] = []): PhaseOutcome {
  return { status: "ok", facts, findings };
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
