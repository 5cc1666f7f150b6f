import type { PhaseStatus } from "@hcs/protocol";
import type { PhaseOutcome } from "../phases/phase.js";
import type { Unavailable, UnavailableKind } from "../phases/shared/unavailable.js";

/**
 * The status of a phase whose per-OS reader could not read, by kind, for every phase alike: a machine without the
 * tool cannot make the check (unsupported, as a platform without a reader); missing privileges, a tool that did not
 * answer in time or answered unreadably may do better on another run (skipped).
 */
export const UNAVAILABLE_STATUS: Readonly<Record<UnavailableKind, Extract<PhaseStatus, "skipped" | "unsupported">>> = {
  not_found: "unsupported",
  permission: "skipped",
  timeout: "skipped",
  unparsed: "skipped",
};

/** The outcome the runner records for a phase whose reading is unavailable: the reader's words, the kind in facts. */
export function unavailableOutcome(reading: Unavailable): PhaseOutcome {
  return {
    status: UNAVAILABLE_STATUS[reading.kind],
    facts: { unavailable: reading.kind },
    findings: [],
    reason: reading.message,
  };
}
