import { z } from "zod";
import type { Grade } from "../categories.js";

/**
 * Grade caps: a finding that names one of these limits the grade whatever the average says, as SSL Labs
 * caps a server with a critical flaw. Each cap lowers the score to the top of its grade band, so the
 * letter stays the one derived from the score.
 */
export const GRADE_CAPS = {
  remote_access_exposed: {
    max_grade: "F",
    reason: "A remote access service (RDP, SMB, telnet, VNC) is reachable from the internet",
  },
  phi_tracker_on_authenticated_page: {
    max_grade: "D",
    reason: "A third-party tracker runs on a login, portal, scheduling or intake page (HHS OCR tracking guidance)",
  },
  cleartext_phi_form: {
    max_grade: "D",
    reason: "A patient-facing form submits over plain HTTP",
  },
  unencrypted_ephi_device: {
    max_grade: "C",
    reason: "A device that holds ePHI has an unencrypted fixed volume",
  },
  ephi_device_without_backup: {
    max_grade: "C",
    reason: "A device that holds ePHI has no backup, or its backup tool has never completed one",
  },
  known_exploited_past_due: {
    max_grade: "C",
    reason:
      "Installed software has a vulnerability CISA lists as exploited in the wild, unpatched past CISA's due date",
  },
  end_of_life_system: {
    max_grade: "C",
    reason: "An end-of-life operating system or server software is in use",
  },
  legacy_tls: {
    max_grade: "B",
    reason: "TLS 1.0 or TLS 1.1 is still offered",
  },
} as const satisfies Record<string, { max_grade: Grade; reason: string }>;

export type GradeCapId = keyof typeof GRADE_CAPS;
export const GRADE_CAP_IDS = Object.keys(GRADE_CAPS) as GradeCapId[];
export const GradeCapIdSchema = z.enum(GRADE_CAP_IDS as [GradeCapId, ...GradeCapId[]]);

export const AppliedCapSchema = z.object({
  id: GradeCapIdSchema,
  max_grade: z.enum(["A", "B", "C", "D", "F"]),
  reason: z.string(),
});
export type AppliedCap = z.infer<typeof AppliedCapSchema>;
