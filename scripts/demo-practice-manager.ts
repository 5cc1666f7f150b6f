// The practice manager's pass of `npm run demo`: the paperwork half of HIPAA over Group A (Bearer), on one sample
// practice — answer the risk-assessment questionnaire, generate the 24 policies, load a training roster as CSV,
// record a business associate, report an incident — printing the administrative category as it moves.
import { httpRequestTo } from "../apps/server/src/lab/https-client.js";
import type { Lab } from "../apps/server/src/lab/lab.js";

/** Runs the pass on the practice `npi` (owned by the lab's Professional account); throws on any refused call. */
export async function practiceManagerPass(lab: Lab, npi: string, say: (line: string) => void): Promise<void> {
  const call = async (method: string, path: string, body?: unknown, contentType?: string) => {
    const res = await httpRequestTo(`${lab.server.url}${path}`, {
      method,
      ca: lab.server.tls.caPem,
      headers: {
        Authorization: `Bearer ${lab.apiKey}`,
        ...(contentType ? { "Content-Type": contentType } : {}),
      },
      ...(body === undefined ? {} : { body }),
    });
    if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res.json;
  };
  const administrative = async () => {
    const p = await call("GET", `/v1/practice?npi=${npi}`);
    const cat = p.compliance.grade?.categories.administrative_safeguards;
    return `administrative_safeguards ${cat ? `${cat.score}/100` : "no data"}; grade ${p.compliance.grade?.grade} (${p.compliance.grade?.compliance_score}/100)`;
  };

  say(`practice manager (Group A, Bearer) for NPI ${npi}: ${await administrative()}`);

  const incident = await call("POST", `/v1/incidents?npi=${npi}`, {
    npi,
    title: "Billing email sent to the wrong patient",
    category: "unauthorized_access_disclosure",
    discovered_on: new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10),
    phi_involved: true,
    individuals_affected: 1,
    residents_by_state: { OR: 1 },
    risk_assessment: {
      data_types: ["demographic", "insurance", "financial"],
      recipient: "known_individual",
      acquired_or_viewed: "acquired_or_viewed",
      mitigation: "partial",
    },
  });
  const clock = incident.notifications.map(
    (n: { recipient: string; due_on: string | null }) => `${n.recipient} by ${n.due_on ?? "n/a"}`,
  );
  say(
    `incident reported → ${incident.determination.determination} (${incident.determination.reason.slice(0, 60)}…); notify ${clock.join(", ")}`,
  );
  say(`  first administrative record: ${await administrative()}`);

  const ra = await call("POST", "/v1/risk-assessment", {
    npi,
    responses: {
      "basics.security_official": { answer: "yes" },
      "data.encryption_at_rest": { answer: "yes" },
      "workforce.mfa": { answer: "partial" },
      "contingency.backups": { answer: "yes" },
      "vendors.baa": { answer: "partial" },
    },
  });
  const report = ra.assessment.report;
  const flagged = ra.questionnaire.sections.flatMap((s: { questions: { id: string; flag: string | null }[] }) =>
    s.questions.filter((q) => q.flag).map((q) => `${q.id} (${q.flag})`),
  );
  say(
    `risk assessment v${report.version}: overall ${report.overall_level}, top risk "${report.register[0].threat}" (${report.register[0].level}); flagged against the scans: ${flagged.join(", ") || "none"}`,
  );
  say(`  ${await administrative()}`);

  const policies = await call("POST", "/v1/policies/generate", {
    npi,
    profile: {
      security_officer: { name: "Dana Ortiz", title: "Practice Administrator" },
      workforce_size: 3,
      state: "OR",
    },
  });
  say(`24 policies generated (${policies.current} current); e.g. ${policies.policies[20].download.markdown}`);
  say(`  ${await administrative()}`);

  const csv = [
    "member_id,name,role,hired_on,course,completed_on",
    `e1,"Ortiz, Dana",practice administrator,2019-04-01,hipaa_security_awareness,${new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10)}`,
    `e2,Sam Lee,medical assistant,2021-09-15,hipaa_security_awareness,${new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10)}`,
    "e3,Kim Park,front desk,2022-01-10,,",
  ].join("\n");
  const training = await call("POST", `/v1/training/records?npi=${npi}`, csv, "text/csv");
  say(`training roster loaded: ${training.current}/${training.active_members} current, ${training.overdue} overdue`);
  say(`  ${await administrative()}`);

  const baa = await lab.request(`/v1/a2a/baa/${npi}`, {
    action: "upsert",
    vendor: {
      name: "Acme Billing",
      services: ["claims"],
      phi_access: true,
      baa_status: "signed",
      signed_on: "2024-01-10",
    },
  });
  say(
    `business associates: ${baa.json.summary.covered}/${baa.json.summary.with_phi_access} with PHI access covered by a BAA`,
  );
  say(`  after the practice manager's pass: ${await administrative()}`);
}
