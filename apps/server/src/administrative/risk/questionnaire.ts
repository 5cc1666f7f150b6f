import type { CategoryName, HipaaControlId, PhaseId } from "@hcs/protocol";

/** Bumped whenever a question is added, removed or reworded; stored with every set of responses. */
export const QUESTIONNAIRE_VERSION = "hcs-sra-questionnaire-2026.1";

/** What the scans can say about a question: a scanner phase's outcome, or the external checks of a category. */
export type QuestionEvidence =
  | { readonly kind: "phase"; readonly phase: PhaseId }
  | { readonly kind: "external"; readonly category: CategoryName };

export interface Question {
  readonly id: string;
  readonly text: string;
  readonly controls: readonly HipaaControlId[];
  readonly evidence?: QuestionEvidence;
}

export interface QuestionnaireSection {
  readonly id: string;
  readonly title: string;
  readonly questions: readonly Question[];
}

const phase = (p: PhaseId): QuestionEvidence => ({ kind: "phase", phase: p });

/**
 * The risk-assessment questionnaire, in the seven sections of the HHS/ONC Security Risk Assessment Tool (v3): SRA
 * basics, security policies, security and the workforce, security and data, security and the practice (physical),
 * security and vendors, contingency planning. Each question names the 45 CFR controls it evidences; those the
 * internal or external scans can answer name that evidence and are pre-filled from it.
 */
export const QUESTIONNAIRE: readonly QuestionnaireSection[] = [
  {
    id: "sra_basics",
    title: "SRA basics",
    questions: [
      {
        id: "basics.security_official",
        text: "Has the practice designated a security official responsible for HIPAA security?",
        controls: ["164.308(a)(2)"],
      },
      {
        id: "basics.asset_inventory",
        text: "Is there a current inventory of every device, application and location that creates, receives, maintains or transmits ePHI?",
        controls: ["164.308(a)(1)(ii)(A)", "164.310(d)(2)(iii)"],
        evidence: phase("asset_inventory"),
      },
      {
        id: "basics.risk_management_plan",
        text: "Are identified risks tracked in a risk management plan with owners and dates?",
        controls: ["164.308(a)(1)(ii)(B)"],
      },
      {
        id: "basics.evaluation",
        text: "Is a technical and non-technical evaluation of security performed at least yearly and after major changes?",
        controls: ["164.308(a)(8)"],
      },
    ],
  },
  {
    id: "security_policies",
    title: "Security policies",
    questions: [
      {
        id: "policies.written",
        text: "Are security policies and procedures written, adopted and available to the workforce?",
        controls: ["164.316(a)", "164.316(b)(2)(ii)"],
      },
      {
        id: "policies.reviewed",
        text: "Are policies reviewed at least every 12 months and updated after changes?",
        controls: ["164.316(b)(2)(iii)"],
      },
      { id: "policies.retention", text: "Is documentation retained for six years?", controls: ["164.316(b)(2)(i)"] },
      {
        id: "policies.sanctions",
        text: "Is there a sanctions policy applied to workforce members who violate policies?",
        controls: ["164.308(a)(1)(ii)(C)"],
      },
    ],
  },
  {
    id: "workforce",
    title: "Security and the workforce",
    questions: [
      {
        id: "workforce.training",
        text: "Does every workforce member complete security training on hire and at least yearly?",
        controls: ["164.308(a)(5)", "164.308(a)(5)(ii)(A)"],
      },
      {
        id: "workforce.access_termination",
        text: "Is access removed the same day a workforce member leaves?",
        controls: ["164.308(a)(3)(ii)(C)"],
      },
      {
        id: "workforce.unique_ids",
        text: "Does every user have a unique login (no shared accounts), with access limited to their role?",
        controls: ["164.312(a)(2)(i)", "164.308(a)(4)(ii)(B)"],
        evidence: phase("access_control"),
      },
      {
        id: "workforce.mfa",
        text: "Is multi-factor authentication required for remote access, email and systems holding ePHI?",
        controls: ["164.312(d)"],
        evidence: phase("mfa"),
      },
    ],
  },
  {
    id: "data_security",
    title: "Security and data",
    questions: [
      {
        id: "data.encryption_at_rest",
        text: "Are all workstations, laptops, servers and removable media that hold ePHI encrypted?",
        controls: ["164.312(a)(2)(iv)"],
        evidence: phase("disk_encryption"),
      },
      {
        id: "data.transmission",
        text: "Is ePHI transmitted only over encrypted channels (TLS 1.2+, VPN, SFTP)?",
        controls: ["164.312(e)(1)", "164.312(e)(2)(ii)"],
        evidence: phase("tls"),
      },
      {
        id: "data.patching",
        text: "Are security updates applied promptly and automatically, and are end-of-life systems replaced?",
        controls: ["164.308(a)(5)(ii)(B)"],
        evidence: phase("patches"),
      },
      {
        id: "data.end_of_life",
        text: "Is every operating system and application still supported by its vendor?",
        controls: ["164.308(a)(1)(ii)(B)"],
        evidence: phase("eol"),
      },
      {
        id: "data.segmentation",
        text: "Are systems holding ePHI separated from guest and other networks, with a firewall?",
        controls: ["164.312(e)(1)", "164.312(a)(1)"],
        evidence: phase("segmentation"),
      },
      {
        id: "data.audit_logs",
        text: "Are audit logs of ePHI systems kept and reviewed regularly?",
        controls: ["164.312(b)", "164.308(a)(1)(ii)(D)"],
      },
      {
        id: "data.website",
        text: "Is the practice's website free of third-party trackers on patient pages, with forms submitted over HTTPS?",
        controls: ["164.312(e)(1)"],
        evidence: { kind: "external", category: "privacy_compliance" },
      },
      {
        id: "data.email",
        text: "Is the practice's email domain protected against spoofing (SPF, DKIM, DMARC)?",
        controls: ["164.312(e)(1)"],
        evidence: { kind: "external", category: "email_security" },
      },
    ],
  },
  {
    id: "physical_security",
    title: "Security and the practice (physical)",
    questions: [
      {
        id: "physical.facility",
        text: "Are server and network areas locked, with access limited and recorded?",
        controls: ["164.310(a)(1)", "164.310(a)(2)(iii)"],
      },
      {
        id: "physical.workstations",
        text: "Do workstations lock automatically after inactivity and sit where the public cannot see them?",
        controls: ["164.310(c)", "164.312(a)(2)(iii)"],
        evidence: phase("access_control"),
      },
      {
        id: "physical.disposal",
        text: "Are devices and media sanitized or destroyed before disposal or re-use?",
        controls: ["164.310(d)(2)(i)", "164.310(d)(2)(ii)"],
      },
    ],
  },
  {
    id: "business_associates",
    title: "Security and vendors",
    questions: [
      {
        id: "vendors.inventory",
        text: "Is every vendor that creates, receives, maintains or transmits ePHI identified?",
        controls: ["164.308(b)(1)"],
      },
      {
        id: "vendors.baa",
        text: "Does every such vendor have a signed, current business associate agreement?",
        controls: ["164.308(b)(1)", "164.308(b)(3)"],
      },
    ],
  },
  {
    id: "contingency",
    title: "Contingency planning",
    questions: [
      {
        id: "contingency.backups",
        text: "Are ePHI systems backed up at least daily with an offline or immutable copy?",
        controls: ["164.308(a)(7)(ii)(A)"],
        evidence: phase("backups"),
      },
      {
        id: "contingency.restore_test",
        text: "Has a restore from backup been tested in the last 12 months?",
        controls: ["164.308(a)(7)(ii)(D)", "164.308(a)(7)(ii)(B)"],
      },
      {
        id: "contingency.emergency_mode",
        text: "Is there an emergency mode operation plan for working through an outage?",
        controls: ["164.308(a)(7)(ii)(C)"],
      },
      {
        id: "contingency.incident_response",
        text: "Is there a documented incident response procedure, including breach assessment and notification?",
        controls: ["164.308(a)(6)(ii)", "164.404(a)"],
      },
    ],
  },
];

export const QUESTIONS: readonly Question[] = QUESTIONNAIRE.flatMap((s) => s.questions);
export const QUESTION_IDS = QUESTIONS.map((q) => q.id);
