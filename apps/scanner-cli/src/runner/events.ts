import type { PhaseId, PhaseStatus } from "@hcs/protocol";

/** Progress of a scan, for the CLI's live view and its plain or JSON logs. */
export type RunnerEvent =
  | { readonly type: "phase_started"; readonly id: PhaseId; readonly title: string }
  | {
      readonly type: "phase_finished";
      readonly id: PhaseId;
      readonly title: string;
      readonly status: PhaseStatus;
      readonly findings: number;
      readonly duration_ms: number;
      readonly reason?: string;
    }
  /** A phase's diagnostic line (shown with --verbose); never ePHI, never secrets. */
  | { readonly type: "phase_log"; readonly id: PhaseId; readonly message: string };
