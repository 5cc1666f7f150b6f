// The threat-intelligence pass of `npm run demo` (docs/intelligence.md). It writes a small sample of each public
// feed in its official format — a few dozen HHS OCR breach rows and a few CISA KEV entries, all invented for the
// demo and labelled so, never real records — imports them with the operator's `hcs-server data import` (the same
// SQLite file the running lab server uses), then shows, as an agent would see them over HTTPS: a breach check of a
// sample practice (a same-state match, a near-miss that does not match) and its KEV match (the nginx version its
// website discloses) — which the import made a graded finding on the practice's external grade — and each feed's
// age in /readyz.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Lab } from "../apps/server/src/lab/lab.js";

const run = promisify(execFile);
const serverBin = join(import.meta.dirname, "..", "apps", "server", "src", "bin.ts");

const HEADER =
  "Name of Covered Entity,State,Covered Entity Type,Individuals Affected,Breach Submission Date,Type of Breach,Location of Breached Information,Business Associate Present,Web Description";
const TYPES = ["Hacking/IT Incident", "Hacking/IT Incident", "Unauthorized Access/Disclosure", "Theft", "Loss"];
const LOCATIONS = [
  "Network Server",
  "Email",
  "Network Server",
  "Electronic Medical Record",
  "Laptop, Desktop Computer",
];

/** 30 invented reports in the portal's export format (MM/DD/YYYY dates, Yes/No), two of them about `practice`. */
function breachSample(practiceName: string, state: string, today: Date): string {
  const day = (daysAgo: number) => {
    const d = new Date(today.getTime() - daysAgo * 86_400_000);
    return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
  };
  const rows = Array.from({ length: 28 }, (_, i) => {
    const entityState = ["OR", "WA", "CA", "OH", "TX", "NY", "FL"][i % 7]!;
    return [
      `"Demo Sample Clinic ${i + 1}, LLC"`,
      entityState,
      i % 5 === 4 ? "Business Associate" : "Healthcare Provider",
      String(500 + i * 731),
      day(20 + i * 23),
      TYPES[i % TYPES.length],
      `"${LOCATIONS[i % LOCATIONS.length]}"`,
      i % 5 === 4 ? "Yes" : "No",
      `"Invented demo record ${i + 1}; not a real breach report."`,
    ].join(",");
  });
  rows.push(
    `"${practiceName}, PLLC",${state},Healthcare Provider,2150,${day(40)},Hacking/IT Incident,Email,No,"Invented demo record: phishing of a staff mailbox.\nNot a real breach report."`,
  );
  // A near-miss: same state, most of the name shared, a different practice — must not match.
  rows.push(
    `"${practiceName.split(" ").slice(0, 2).join(" ")} Dental Group",${state},Healthcare Provider,730,${day(90)},Theft,Laptop,No,"Invented demo record."`,
  );
  return `${HEADER}\r\n${rows.join("\r\n")}\r\n`;
}

/** Four invented KEV entries in the catalogue's format; one states a range holding nginx 1.24.0. */
function kevSample(today: Date): string {
  const iso = (daysAgo: number) => new Date(today.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const entry = (n: number, vendor: string, product: string, description: string, ransomware: string) => ({
    cveID: `CVE-2099-${String(1000 + n)}`,
    vendorProject: vendor,
    product,
    vulnerabilityName: `DEMO SAMPLE ${product} vulnerability (invented for the HCS demo)`,
    dateAdded: iso(60 + n),
    shortDescription: description,
    requiredAction: "Apply updates per vendor instructions (demo sample).",
    dueDate: iso(39 + n),
    knownRansomwareCampaignUse: ransomware,
    notes: "Invented for the HCS demo; not a real catalogue entry.",
    cwes: ["CWE-787"],
  });
  const vulnerabilities = [
    entry(1, "F5", "NGINX", "nginx before 1.25.4 contains a demo out-of-bounds write in its HTTP/2 module.", "Known"),
    entry(2, "OpenBSD", "OpenSSH", "OpenSSH 8.5p1 before 9.8p1 contains a demo signal-handler race.", "Unknown"),
    entry(3, "Microsoft", "Windows", "Microsoft Windows contains a demo privilege escalation.", "Unknown"),
    entry(4, "Roundcube", "Webmail", "Roundcube Webmail contains a demo cross-site scripting flaw.", "Unknown"),
  ];
  return JSON.stringify(
    {
      title: "CISA Catalog of Known Exploited Vulnerabilities",
      catalogVersion: `${iso(3).replace(/-/g, ".")}`,
      dateReleased: `${iso(3)}T12:00:00.000Z`,
      count: vulnerabilities.length,
      vulnerabilities,
    },
    null,
    2,
  );
}

/** Runs the pass; `say` prints a timestamped line. Throws on anything an agent would not have seen. */
export async function runIntelDemo(lab: Lab, work: string, say: (line: string) => void): Promise<void> {
  const practice = lab.samples.practices.find((p) => p.name === "Maple Street Pediatrics");
  if (!practice) throw new Error("the Maple Street Pediatrics sample practice is missing");
  const today = new Date();
  const files = { breaches: join(work, "breach_report_demo.csv"), kev: join(work, "kev_demo.json") };
  writeFileSync(files.breaches, breachSample(practice.name, "OR", today));
  writeFileSync(files.kev, kevSample(today));
  const hcs = async (...args: string[]) => {
    const r = await run(process.execPath, ["--import", "tsx", serverBin, "--json", ...args], {
      env: { ...process.env, HCS_DATA_DIR: lab.dataDir, HCS_LOG_LEVEL: "silent" },
      timeout: 60_000,
    });
    return JSON.parse(r.stdout);
  };
  await hcs("practices", "set-state", "--npi", practice.npi, "--state", "OR");
  const gradeBefore = (await lab.request(`/v1/a2a/grade/${practice.npi}`)).json;
  const b = await hcs("data", "import", "hhs-breaches", "--file", files.breaches);
  const k = await hcs("data", "import", "kev", "--file", files.kev);
  say(
    `operator imported demo feeds: ${b.records} breach reports (newest ${b.version}), KEV catalogue ${k.version} (${k.records} entries; ${k.detail.hosts_reevaluated} scanner host(s) and ${k.detail.sites_reevaluated} public site(s) re-evaluated)`,
  );

  const breach = await lab.request(`/v1/a2a/breach/${practice.npi}`);
  if (breach.status !== 200) throw new Error(`breach check: ${breach.status} ${breach.text}`);
  for (const m of breach.json.matches as { confidence: number; basis: string; record: Record<string, unknown> }[])
    say(
      `breach check ${practice.name} (OR): ${m.record.entity_name} — ${m.record.breach_types} via ${m.record.locations}, ${m.record.individuals_affected} people, ${m.record.submitted_on} (confidence ${m.confidence}, ${m.basis})`,
    );
  if ((breach.json.matches as unknown[]).length !== 1)
    throw new Error("the breach check should match exactly one report");

  const threats = await lab.request(`/v1/a2a/threats/${practice.npi}`);
  if (threats.status !== 200) throw new Error(`threats: ${threats.status} ${threats.text}`);
  const confirmed = (threats.json.matches as Record<string, unknown>[]).filter((m) => m.version_match === "affected");
  for (const m of confirmed)
    say(
      `KEV match for ${practice.name}: ${m.cve} in ${m.software} ${m.version} seen on ${m.seen_on} (affected: ${(m.affected_versions as string[]).join("; ")}), due ${m.due_date}${m.known_ransomware_use ? ", used by ransomware" : ""} — fix: ${m.fix}`,
    );
  if (confirmed.length === 0) throw new Error("the demo practice should have a version-confirmed KEV match");
  // The import re-evaluated the site: the confirmed match on its disclosed version is now a graded finding.
  const findings = await lab.request(`/v1/a2a/findings/${practice.npi}?source=external&limit=200`);
  const graded = (findings.json.findings as Record<string, unknown>[]).filter(
    (f) => f.check_id === "app.server_disclosure.known_exploited_vulnerability",
  );
  if (graded.length === 0) throw new Error("the site's version-confirmed KEV match should be a graded finding");
  const gradeAfter = (await lab.request(`/v1/a2a/grade/${practice.npi}`)).json;
  say(
    `graded: ${graded.map((f) => `${f.title} (${f.severity}${f.grade_cap ? `, caps ${f.grade_cap}` : ""})`).join("; ")} — ${practice.name} ${gradeBefore.grade} ${gradeBefore.compliance_score} → ${gradeAfter.grade} ${gradeAfter.compliance_score}`,
  );
  const sector = threats.json.sector as { breaches: number; breach_types: { name: string; count: number }[] };
  say(
    `sector (healthcare providers in OR, 24 months): ${sector.breaches} reports; most common: ${sector.breach_types.map((t) => `${t.name} ${t.count}`).join(", ")}`,
  );
  const ready = await lab.request("/readyz");
  say(`/readyz feeds: ${(ready.json.details.feeds as { summary: string }[]).map((f) => f.summary).join("; ")}`);
}
