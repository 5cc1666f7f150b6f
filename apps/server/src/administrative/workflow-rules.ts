import type { HipaaControlId, Severity } from "@hcs/protocol";
import { z } from "zod";
import { PHI_DATA_TYPES, type PhiDataType } from "./breach-determination.js";

export const TRANSPORTS = [
  "https",
  "tls",
  "sftp",
  "vpn",
  "direct_secure_messaging",
  "encrypted_email",
  "internal",
  "removable_media",
  "fax",
  "rdp",
  "http",
  "ftp",
  "telnet",
  "smtp_plain",
  "email_plain",
] as const;
const CLEARTEXT: readonly string[] = ["http", "ftp", "telnet", "smtp_plain", "email_plain"];
export const PURPOSES = [
  "treatment",
  "payment",
  "operations",
  "patient_access",
  "marketing",
  "research",
  "other",
] as const;
export const ACCESS_CONTROLS = ["role_based", "unique_accounts", "shared_account", "none"] as const;

const label = z.string().trim().min(1).max(200);
export const WorkflowStepSchema = z.strictObject({
  id: z.string().trim().min(1).max(64).optional(),
  from: label,
  to: label,
  system: label,
  vendor: label.optional(),
  /** The vendor has a signed, current BAA (when the practice's records do not say, see hipaa.baa). */
  baa: z.boolean().optional(),
  data_types: z.array(z.enum(PHI_DATA_TYPES)).min(1).max(PHI_DATA_TYPES.length),
  purpose: z.enum(PURPOSES).default("operations"),
  transport: z.enum(TRANSPORTS),
  /** The destination keeps the data (default true); false for pass-through steps. */
  stores_data: z.boolean().default(true),
  encrypted_at_rest: z.boolean().optional(),
  access_control: z.enum(ACCESS_CONTROLS).optional(),
  mfa: z.boolean().optional(),
});
export type WorkflowStep = z.output<typeof WorkflowStepSchema>;
export const WorkflowSchema = z.strictObject({ steps: z.array(WorkflowStepSchema).min(1).max(100) });

export interface WorkflowIssue {
  readonly step: number;
  readonly step_id: string | null;
  readonly rule: string;
  readonly severity: Severity;
  readonly control: HipaaControlId;
  readonly controls: HipaaControlId[];
  readonly message: string;
  readonly fix: string;
}

/**
 * PHI each purpose needs at most (164.502(b), 164.514(d)); treatment and the patient's own access are exempt from
 * minimum necessary (164.502(b)(2)), so they have no limit.
 */
export const MINIMUM_NECESSARY: Record<(typeof PURPOSES)[number], readonly PhiDataType[] | null> = {
  treatment: null,
  patient_access: null,
  payment: ["demographic", "contact", "insurance", "diagnosis", "financial"],
  operations: ["demographic", "contact", "insurance"],
  research: [],
  marketing: [],
  other: ["demographic", "contact"],
};

interface Rule {
  readonly id: string;
  check(
    step: WorkflowStep,
    ctx: { vendorHasBaa: (vendor: string) => boolean | undefined },
  ): Omit<WorkflowIssue, "step" | "step_id" | "rule"> | null;
}

/** The rules, each one concern; the engine runs every rule on every step. */
export const WORKFLOW_RULES: readonly Rule[] = [
  {
    id: "cleartext_transport",
    check: (s) =>
      CLEARTEXT.includes(s.transport)
        ? {
            severity: "high",
            control: "164.312(e)(2)(ii)",
            controls: ["164.312(e)(1)", "164.312(e)(2)(ii)"],
            message: `PHI moves from ${s.from} to ${s.to} over ${s.transport}, which is not encrypted in transit`,
            fix: "Use HTTPS (TLS 1.2+), SFTP, a VPN, Direct secure messaging or encrypted email instead.",
          }
        : null,
  },
  {
    id: "storage_unencrypted",
    check: (s) =>
      s.stores_data && s.encrypted_at_rest === false
        ? {
            severity: s.transport === "removable_media" ? "critical" : "high",
            control: "164.312(a)(2)(iv)",
            controls:
              s.transport === "removable_media" ? ["164.312(a)(2)(iv)", "164.310(d)(1)"] : ["164.312(a)(2)(iv)"],
            message: `${s.to} (${s.system}) stores PHI without encryption at rest`,
            fix: "Encrypt the storage (full-disk or database encryption, encrypted removable media) with keys kept apart from the data.",
          }
        : null,
  },
  {
    id: "vendor_without_baa",
    check: (s, ctx) => {
      if (!s.vendor) return null;
      const recorded = ctx.vendorHasBaa(s.vendor);
      const has = recorded ?? s.baa;
      return has === true
        ? null
        : {
            severity: "high",
            control: "164.308(b)(1)",
            controls: ["164.308(b)(1)", "164.308(b)(3)", "164.502(e)"],
            message: `${s.vendor} receives PHI ${recorded === false ? "and the practice's records show no current BAA" : "without a BAA on record"}`,
            fix: "Sign a business associate agreement meeting 164.504(e) with the vendor before sharing PHI, and record it (hipaa.baa).",
          };
    },
  },
  {
    id: "shared_account",
    check: (s) =>
      s.access_control === "shared_account"
        ? {
            severity: "high",
            control: "164.312(a)(2)(i)",
            controls: ["164.312(a)(2)(i)", "164.312(b)"],
            message: `${s.system} is used through a shared account, so no access can be traced to a person`,
            fix: "Give every user a unique login and remove the shared account.",
          }
        : null,
  },
  {
    id: "no_access_control",
    check: (s) =>
      s.access_control === "none"
        ? {
            severity: "critical",
            control: "164.312(a)(1)",
            controls: ["164.312(a)(1)", "164.308(a)(4)"],
            message: `${s.system} holds PHI with no access control`,
            fix: "Require authentication with role-based access before any PHI is reachable.",
          }
        : null,
  },
  {
    id: "remote_access_without_mfa",
    check: (s) =>
      (s.transport === "rdp" || s.transport === "vpn") && s.mfa === false
        ? {
            severity: "high",
            control: "164.312(d)",
            controls: ["164.312(d)"],
            message: `Remote access to ${s.system} over ${s.transport} without multi-factor authentication`,
            fix: "Require MFA on the VPN or remote desktop gateway; never expose RDP to the internet.",
          }
        : null,
  },
  {
    id: "beyond_minimum_necessary",
    check: (s) => {
      const allowed = MINIMUM_NECESSARY[s.purpose];
      if (allowed === null) return null;
      const extra = s.data_types.filter((t) => !allowed.includes(t));
      return extra.length === 0
        ? null
        : {
            severity: "medium",
            control: "164.502(b)",
            controls: ["164.502(b)", "164.514(d)"],
            message: `${s.purpose} does not need ${extra.join(", ")}: more than the minimum necessary`,
            fix: `Send only ${allowed.length ? allowed.join(", ") : "de-identified data or data the patient authorized"} for ${s.purpose}.`,
          };
    },
  },
];

/** Runs every rule on every step (pure); `vendorHasBaa` reads the practice's BAA records when it has any. */
export function validateWorkflow(
  steps: readonly WorkflowStep[],
  vendorHasBaa: (vendor: string) => boolean | undefined = () => undefined,
): WorkflowIssue[] {
  return steps.flatMap((step, i) =>
    WORKFLOW_RULES.flatMap((rule) => {
      const issue = rule.check(step, { vendorHasBaa });
      return issue ? [{ step: i + 1, step_id: step.id ?? null, rule: rule.id, ...issue }] : [];
    }),
  );
}
