import type { ServiceDeps } from "../services/deps.js";
import { getPractice } from "../services/practices.js";
import type { ScanUploadSummary } from "../services/scan-upload-record.js";
import { type PracticeProfile, readProfile } from "./profile.js";

/** What the documents are written from: the profile, and the systems and vendors HCS has seen. */
export interface PracticeFacts {
  readonly npi: string;
  readonly name: string;
  readonly domain: string;
  readonly profile: PracticeProfile;
  /** Hosts the scanner examined: "hostname (OS)", and the ePHI roles it recognized on them. */
  readonly systems: readonly { readonly host: string; readonly os: string; readonly ephi_roles: readonly string[] }[];
  /** Business associates recorded (hipaa.baa). */
  readonly vendors: readonly {
    readonly name: string;
    readonly services: readonly string[];
    readonly phi_access: boolean;
  }[];
}

/** Reads the facts of a practice (the latest upload of each scanner host; the recorded vendors). */
export async function readPracticeFacts(deps: ServiceDeps, npi: string): Promise<PracticeFacts> {
  const db = deps.store.db;
  const [practice, profile, uploads, vendors] = await Promise.all([
    getPractice(deps, npi),
    readProfile(deps, npi),
    db
      .selectFrom("scan_uploads")
      .select(["agent_id", "summary", "facts", "completed_at"])
      .where("npi", "=", npi)
      .orderBy("completed_at", "desc")
      .limit(200)
      .execute(),
    db.selectFrom("business_associates").select("record").where("npi", "=", npi).orderBy("vendor_id").execute(),
  ]);
  const seen = new Set<string>();
  const systems: { host: string; os: string; ephi_roles: string[] }[] = [];
  for (const u of uploads) {
    if (seen.has(u.agent_id)) continue;
    seen.add(u.agent_id);
    const summary = JSON.parse(u.summary) as ScanUploadSummary;
    const facts = u.facts ? (JSON.parse(u.facts) as { asset_inventory?: { ephi_roles?: unknown } }) : {};
    const roles = facts.asset_inventory?.ephi_roles;
    systems.push({
      host: summary.host.hostname,
      os: `${summary.host.os_name} ${summary.host.os_version}`.trim(),
      ephi_roles: Array.isArray(roles) ? roles.filter((r): r is string => typeof r === "string") : [],
    });
  }
  return {
    npi,
    name: practice.name,
    domain: practice.domain,
    profile,
    systems: systems.sort((a, b) => a.host.localeCompare(b.host)),
    vendors: vendors.map((v) => {
      const r = JSON.parse(v.record) as { name: string; services?: string[]; phi_access: boolean };
      return { name: r.name, services: r.services ?? [], phi_access: r.phi_access };
    }),
  };
}
