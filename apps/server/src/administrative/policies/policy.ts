import type { HipaaControlId } from "@hcs/protocol";
import type { PracticeFacts } from "../practice-facts.js";

/** One of the 24 policies: what it cites, and its statements and procedures written from the practice's facts. */
export interface PolicyDefinition {
  readonly number: number;
  readonly slug: string;
  readonly title: string;
  /** The 45 CFR provisions the policy implements (each in the control catalogue; a test checks every citation). */
  readonly citations: readonly HipaaControlId[];
  readonly purpose: string;
  readonly policy: (f: PracticeFacts) => readonly string[];
  readonly procedures: (f: PracticeFacts) => readonly string[];
}

export const definePolicy = (p: PolicyDefinition): PolicyDefinition => p;

/** "Dr. Ana Ruiz (Practice Administrator)" or the role with a note that it must be named. */
export function officer(f: PracticeFacts, which: "security_officer" | "privacy_officer"): string {
  const p = f.profile[which] ?? (which === "privacy_officer" ? f.profile.security_officer : undefined);
  const role = which === "security_officer" ? "Security Official" : "Privacy Official";
  if (!p) return `the ${role} (not yet named in the practice profile)`;
  return `${p.name}${p.title ? ` (${p.title})` : ""}, ${role}`;
}

/** The systems the scanner saw that hold ePHI, else every system seen, as a phrase. */
export function ephiSystems(f: PracticeFacts): string {
  const ehr = f.profile.ehr_system ? [`the ${f.profile.ehr_system} EHR`] : [];
  const tagged = f.systems.filter((s) => s.ephi_roles.length > 0).map((s) => `${s.host} (${s.ephi_roles.join(", ")})`);
  const all = [...ehr, ...(tagged.length > 0 ? tagged : f.systems.map((s) => `${s.host} (${s.os})`))];
  return all.length > 0 ? all.join("; ") : "every workstation, server, mobile device and cloud service that holds ePHI";
}

export const workforce = (f: PracticeFacts): string =>
  f.profile.workforce_size ? `all ${f.profile.workforce_size} workforce members` : "all workforce members";

export const phiVendors = (f: PracticeFacts) => f.vendors.filter((v) => v.phi_access);
