import { z } from "zod";

/**
 * The HIPAA Security Rule safeguards (45 CFR 164.308, 164.310, 164.312) and its documentation rule (164.316),
 * every standard and implementation specification, as listed in Appendix A to Subpart C of Part 164; then the
 * Breach Notification Rule (Subpart D, 164.402–164.414) and the Privacy Rule provisions that the practice's policies
 * and incident records cite (164.502–164.530). A standard without implementation specifications is itself the
 * requirement (Required). Ids are the regulation's paragraph citations; a standard is cited by its first paragraph,
 * as HHS does; a Subpart D section without paragraphs that matter here is cited whole ("164.406").
 */
export type ControlKind = "standard" | "implementation_specification";
export type ControlRequirement = "required" | "addressable";
export const SECURITY_RULE_SECTIONS = ["164.308", "164.310", "164.312", "164.316"] as const;
export const BREACH_NOTIFICATION_SECTIONS = [
  "164.402",
  "164.404",
  "164.406",
  "164.408",
  "164.410",
  "164.412",
  "164.414",
] as const;
export const PRIVACY_RULE_SECTIONS = [
  "164.502",
  "164.504",
  "164.514",
  "164.524",
  "164.526",
  "164.528",
  "164.530",
] as const;
export type SafeguardSection =
  | (typeof SECURITY_RULE_SECTIONS)[number]
  | (typeof BREACH_NOTIFICATION_SECTIONS)[number]
  | (typeof PRIVACY_RULE_SECTIONS)[number];
export const CONTROL_SECTIONS = [
  ...SECURITY_RULE_SECTIONS,
  ...BREACH_NOTIFICATION_SECTIONS,
  ...PRIVACY_RULE_SECTIONS,
] as const;

export interface HipaaControl {
  readonly id: string;
  readonly section: SafeguardSection;
  readonly kind: ControlKind;
  readonly title: string;
  readonly requirement: ControlRequirement;
  /** For an implementation specification, the id of its standard. */
  readonly standard?: string;
}

const std = (id: string, section: SafeguardSection, title: string): HipaaControl => ({
  id,
  section,
  kind: "standard",
  title,
  requirement: "required",
});
const spec = (id: string, standard: string, title: string, r: "R" | "A"): HipaaControl => ({
  id,
  section: id.slice(0, 7) as SafeguardSection,
  kind: "implementation_specification",
  title,
  requirement: r === "R" ? "required" : "addressable",
  standard,
});

export const HIPAA_CONTROLS = [
  // 164.308 Administrative safeguards
  std("164.308(a)(1)", "164.308", "Security management process"),
  spec("164.308(a)(1)(ii)(A)", "164.308(a)(1)", "Risk analysis", "R"),
  spec("164.308(a)(1)(ii)(B)", "164.308(a)(1)", "Risk management", "R"),
  spec("164.308(a)(1)(ii)(C)", "164.308(a)(1)", "Sanction policy", "R"),
  spec("164.308(a)(1)(ii)(D)", "164.308(a)(1)", "Information system activity review", "R"),
  std("164.308(a)(2)", "164.308", "Assigned security responsibility"),
  std("164.308(a)(3)", "164.308", "Workforce security"),
  spec("164.308(a)(3)(ii)(A)", "164.308(a)(3)", "Authorization and/or supervision", "A"),
  spec("164.308(a)(3)(ii)(B)", "164.308(a)(3)", "Workforce clearance procedure", "A"),
  spec("164.308(a)(3)(ii)(C)", "164.308(a)(3)", "Termination procedures", "A"),
  std("164.308(a)(4)", "164.308", "Information access management"),
  spec("164.308(a)(4)(ii)(A)", "164.308(a)(4)", "Isolating health care clearinghouse functions", "R"),
  spec("164.308(a)(4)(ii)(B)", "164.308(a)(4)", "Access authorization", "A"),
  spec("164.308(a)(4)(ii)(C)", "164.308(a)(4)", "Access establishment and modification", "A"),
  std("164.308(a)(5)", "164.308", "Security awareness and training"),
  spec("164.308(a)(5)(ii)(A)", "164.308(a)(5)", "Security reminders", "A"),
  spec("164.308(a)(5)(ii)(B)", "164.308(a)(5)", "Protection from malicious software", "A"),
  spec("164.308(a)(5)(ii)(C)", "164.308(a)(5)", "Log-in monitoring", "A"),
  spec("164.308(a)(5)(ii)(D)", "164.308(a)(5)", "Password management", "A"),
  std("164.308(a)(6)", "164.308", "Security incident procedures"),
  spec("164.308(a)(6)(ii)", "164.308(a)(6)", "Response and reporting", "R"),
  std("164.308(a)(7)", "164.308", "Contingency plan"),
  spec("164.308(a)(7)(ii)(A)", "164.308(a)(7)", "Data backup plan", "R"),
  spec("164.308(a)(7)(ii)(B)", "164.308(a)(7)", "Disaster recovery plan", "R"),
  spec("164.308(a)(7)(ii)(C)", "164.308(a)(7)", "Emergency mode operation plan", "R"),
  spec("164.308(a)(7)(ii)(D)", "164.308(a)(7)", "Testing and revision procedures", "A"),
  spec("164.308(a)(7)(ii)(E)", "164.308(a)(7)", "Applications and data criticality analysis", "A"),
  std("164.308(a)(8)", "164.308", "Evaluation"),
  std("164.308(b)(1)", "164.308", "Business associate contracts and other arrangements"),
  spec("164.308(b)(3)", "164.308(b)(1)", "Written contract or other arrangement", "R"),
  // 164.310 Physical safeguards
  std("164.310(a)(1)", "164.310", "Facility access controls"),
  spec("164.310(a)(2)(i)", "164.310(a)(1)", "Contingency operations", "A"),
  spec("164.310(a)(2)(ii)", "164.310(a)(1)", "Facility security plan", "A"),
  spec("164.310(a)(2)(iii)", "164.310(a)(1)", "Access control and validation procedures", "A"),
  spec("164.310(a)(2)(iv)", "164.310(a)(1)", "Maintenance records", "A"),
  std("164.310(b)", "164.310", "Workstation use"),
  std("164.310(c)", "164.310", "Workstation security"),
  std("164.310(d)(1)", "164.310", "Device and media controls"),
  spec("164.310(d)(2)(i)", "164.310(d)(1)", "Disposal", "R"),
  spec("164.310(d)(2)(ii)", "164.310(d)(1)", "Media re-use", "R"),
  spec("164.310(d)(2)(iii)", "164.310(d)(1)", "Accountability", "A"),
  spec("164.310(d)(2)(iv)", "164.310(d)(1)", "Data backup and storage", "A"),
  // 164.312 Technical safeguards
  std("164.312(a)(1)", "164.312", "Access control"),
  spec("164.312(a)(2)(i)", "164.312(a)(1)", "Unique user identification", "R"),
  spec("164.312(a)(2)(ii)", "164.312(a)(1)", "Emergency access procedure", "R"),
  spec("164.312(a)(2)(iii)", "164.312(a)(1)", "Automatic logoff", "A"),
  spec("164.312(a)(2)(iv)", "164.312(a)(1)", "Encryption and decryption", "A"),
  std("164.312(b)", "164.312", "Audit controls"),
  std("164.312(c)(1)", "164.312", "Integrity"),
  spec("164.312(c)(2)", "164.312(c)(1)", "Mechanism to authenticate electronic protected health information", "A"),
  std("164.312(d)", "164.312", "Person or entity authentication"),
  std("164.312(e)(1)", "164.312", "Transmission security"),
  spec("164.312(e)(2)(i)", "164.312(e)(1)", "Integrity controls", "A"),
  spec("164.312(e)(2)(ii)", "164.312(e)(1)", "Encryption", "A"),
  // 164.316 Policies and procedures and documentation requirements (the 24 policies evidence these)
  std("164.316(a)", "164.316", "Policies and procedures"),
  std("164.316(b)(1)", "164.316", "Documentation"),
  spec("164.316(b)(2)(i)", "164.316(b)(1)", "Time limit", "R"),
  spec("164.316(b)(2)(ii)", "164.316(b)(1)", "Availability", "R"),
  spec("164.316(b)(2)(iii)", "164.316(b)(1)", "Updates", "R"),
  // Subpart D — Notification in the case of breach of unsecured PHI
  std("164.402", "164.402", "Definitions: breach, and the four-factor low-probability-of-compromise assessment"),
  std("164.404(a)", "164.404", "Notification to individuals"),
  std(
    "164.404(b)",
    "164.404",
    "Timeliness: without unreasonable delay, no later than 60 calendar days after discovery",
  ),
  std("164.404(c)", "164.404", "Content of the notification to individuals"),
  std("164.404(d)", "164.404", "Methods of notification to individuals"),
  std("164.406", "164.406", "Notification to the media (more than 500 residents of a State or jurisdiction)"),
  std("164.408(b)", "164.408", "Notification to the Secretary: breaches involving 500 or more individuals"),
  std(
    "164.408(c)",
    "164.408",
    "Notification to the Secretary: annual log of breaches under 500, within 60 days of year end",
  ),
  std("164.410", "164.410", "Notification by a business associate"),
  std("164.412", "164.412", "Law enforcement delay"),
  std("164.414", "164.414", "Burden of proof"),
  // Subpart E — Privacy of individually identifiable health information (the provisions the policies cite)
  std("164.502(b)", "164.502", "Minimum necessary"),
  std("164.502(e)", "164.502", "Disclosures to business associates"),
  std("164.504(e)", "164.504", "Business associate contracts"),
  std("164.514(d)", "164.514", "Minimum necessary requirements"),
  std("164.524", "164.524", "Access of individuals to protected health information"),
  std("164.526", "164.526", "Amendment of protected health information"),
  std("164.528", "164.528", "Accounting of disclosures of protected health information"),
  std("164.530(b)", "164.530", "Privacy training of the workforce"),
  std("164.530(c)", "164.530", "Administrative, technical and physical safeguards of PHI"),
  std("164.530(e)", "164.530", "Sanctions"),
  std("164.530(f)", "164.530", "Mitigation"),
  std("164.530(i)", "164.530", "Privacy policies and procedures"),
  std("164.530(j)", "164.530", "Documentation and six-year retention"),
] as const satisfies readonly HipaaControl[];

export type HipaaControlId = (typeof HIPAA_CONTROLS)[number]["id"];

const BY_ID: ReadonlyMap<string, HipaaControl> = new Map(HIPAA_CONTROLS.map((c) => [c.id, c]));

export const HIPAA_CONTROL_IDS = HIPAA_CONTROLS.map((c) => c.id) as HipaaControlId[];
/** Registered by id: JSON Schema and OpenAPI documents list the 83 citations once and refer to them. */
export const HipaaControlIdSchema = z
  .enum(HIPAA_CONTROL_IDS as [HipaaControlId, ...HipaaControlId[]])
  .meta({ id: "HipaaControlId" });

/** The control with this citation, or undefined. */
export function hipaaControl(id: string): HipaaControl | undefined {
  return BY_ID.get(id);
}
