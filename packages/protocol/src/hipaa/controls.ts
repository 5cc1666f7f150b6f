import { z } from "zod";

/**
 * The HIPAA Security Rule safeguards (45 CFR 164.308, 164.310, 164.312) and its documentation rule (164.316),
 * every standard and implementation specification, as listed in Appendix A to Subpart C of Part 164.
 * A standard without implementation specifications is itself the requirement (Required).
 * Ids are the regulation's paragraph citations; a standard is cited by its first paragraph, as HHS does.
 */
export type ControlKind = "standard" | "implementation_specification";
export type ControlRequirement = "required" | "addressable";
export type SafeguardSection = "164.308" | "164.310" | "164.312" | "164.316";

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
] as const satisfies readonly HipaaControl[];

export type HipaaControlId = (typeof HIPAA_CONTROLS)[number]["id"];

const BY_ID: ReadonlyMap<string, HipaaControl> = new Map(HIPAA_CONTROLS.map((c) => [c.id, c]));

export const HIPAA_CONTROL_IDS = HIPAA_CONTROLS.map((c) => c.id) as HipaaControlId[];
export const HipaaControlIdSchema = z.enum(HIPAA_CONTROL_IDS as [HipaaControlId, ...HipaaControlId[]]);

/** The control with this citation, or undefined. */
export function hipaaControl(id: string): HipaaControl | undefined {
  return BY_ID.get(id);
}
