import { createHash } from "node:crypto";
import type { FindingParsed, ScanResultDocument } from "@hcs/protocol";
import { createCheckpoint } from "../audit/checkpoints.js";
import { sequenceAuditLog } from "../audit/sequencer.js";
import type { JobOutput } from "../jobs/executors.js";
import { Worker } from "../jobs/worker.js";
import type { TestResponse } from "../lab/https-client.js";
import { importHhsBreaches, importKev } from "../services/intel/feed-imports.js";
import { addPractice } from "../services/practices.js";
import { scanDocument } from "./agent-client.js";
import { enrolledPracticeFor } from "./enrolled-practice.js";
import { accountWithKey } from "./fixtures.js";
import { inventoryScanDocument } from "./intel-documents.js";
import { importDirectoryRecordFor } from "./nppes-files.js";
import { RIVERSIDE } from "./report-sources.js";
import type { TestServer } from "./test-server.js";

/** What {@link fullyEvidencedPractice} made, with the ids a call of each operation needs. */
export interface FullyEvidencedPractice {
  readonly npi: string;
  readonly name: string;
  /** Two-letter State the practice is registered in (its HHS OCR breach report is filed there). */
  readonly state: string;
  readonly domain: string;
  /** The owner's claim of the practice (the operator's registration: a proved claim of method `operator`). */
  readonly claimId: string;
  /** A Professional account (bulk tier) owning the practice, with credits to spare. */
  readonly owner: { readonly accountId: string; readonly apiKey: string; readonly keyId: string };
  /** The full scan the owner dispatched, completed by the worker: its result, report and webhook-free job. */
  readonly completedJobId: string;
  /** A full scan dispatched and not started (no worker runs after the fixture): what a cancel acts on. */
  readonly pendingJobId: string;
  /** The two scanner hosts that uploaded (frontdesk-01: disk and services; server-01: inventory, KEV, end of life). */
  readonly agentIds: readonly string[];
  /** A third registered scanner that never uploaded: what a revocation acts on. */
  readonly spareAgentId: string;
  /** The deploy token the scanners registered with, and an unused one for a revocation. */
  readonly deployTokenId: string;
  readonly spareDeployTokenId: string;
  /** An audit event of the owner's, covered by the latest signed checkpoint (an inclusion proof exists). */
  readonly auditEventId: number;
  /** The practice's security incident (a breach, recorded over Group A). */
  readonly incidentId: string;
  /** A policy number with a generated version. */
  readonly policyNumber: number;
  /** A business associate's domain whose external grade is stored and fresh (no scan runs for it). */
  readonly vendorDomain: string;
  /** The open findings' ids, by source, as stored. */
  readonly findingIds: { readonly external: string[]; readonly internal: string[]; readonly administrative: string[] };
}

const DEFAULT_NPI = "1564738296";
const CAPTURED_DOMAIN = "riverside-ortho.test";

/**
 * CVE-2021-40438 as the CISA KEV catalogue states it (2025-08-25 release): Apache HTTP Server 2.4.48 and earlier.
 * A scanner host that lists Apache 2.4.48 gets a KEV finding whose id carries the CVE in upper case.
 */
const KEV_CATALOGUE = JSON.stringify({
  title: "CISA Catalog of Known Exploited Vulnerabilities",
  catalogVersion: "2025.08.25",
  dateReleased: "2025-08-25T17:04:19.9796Z",
  count: 1,
  vulnerabilities: [
    {
      cveID: "CVE-2021-40438",
      vendorProject: "Apache",
      product: "Apache",
      vulnerabilityName: "Apache HTTP Server-Side Request Forgery (SSRF)",
      dateAdded: "2021-12-01",
      shortDescription:
        "A crafted request uri-path can cause mod_proxy to forward the request to an origin server choosen by the " +
        "remote user. This issue affects Apache HTTP Server 2.4.48 and earlier.",
      requiredAction: "Apply updates per vendor instructions.",
      dueDate: "2021-12-15",
      knownRansomwareCampaignUse: "Unknown",
      notes: "https://nvd.nist.gov/vuln/detail/CVE-2021-40438",
      cwes: ["CWE-918"],
    },
  ],
});

/** An HHS OCR breach-portal export (the official columns): the practice's own report, a vendor's, and others. */
const hhsExport = (name: string, state: string) =>
  [
    "Name of Covered Entity,State,Covered Entity Type,Individuals Affected,Breach Submission Date,Type of Breach,Location of Breached Information,Business Associate Present,Web Description",
    `${name},${state},Healthcare Provider,1200,2023-05-11,Hacking/IT Incident,Network Server,No,`,
    "CloudFax Inc.,TX,Business Associate,5400,2024-02-14,Unauthorized Access/Disclosure,Email,Yes,",
    "Lakeside Family Clinic,OH,Healthcare Provider,820,2024-06-03,Theft,Laptop,No,",
    "Valley Orthopedic Associates,PA,Healthcare Provider,14200,2024-09-19,Hacking/IT Incident,Network Server,No,",
    "Northside Dental Group,OH,Healthcare Provider,650,2024-11-27,Hacking/IT Incident,Email,No,",
  ].join("\n");

const feed = (text: string) => ({
  source: "fixture",
  text,
  sha256: createHash("sha256").update(text).digest("hex"),
});

const day = (at: Date, offsetDays = 0) => new Date(at.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);

function expect2xx(what: string, res: TestResponse): TestResponse {
  if (res.status < 200 || res.status > 299) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 500)}`);
  return res;
}

/** The external findings of a captured full scan (the Riverside sample practice), about `domain`. */
export function capturedExternalScan(domain: string): JobOutput {
  const findings = RIVERSIDE.job.result.findings
    .filter((f) => f.source === "external")
    .map(({ first_seen: _f, last_seen: _l, ...f }) =>
      JSON.parse(JSON.stringify(f).replaceAll(CAPTURED_DOMAIN, domain)),
    );
  return {
    source: "external",
    subject: domain,
    categories: ["email_security", "application_security", "privacy_compliance"],
    findings: findings as FindingParsed[],
  };
}

/**
 * Runs the server's job worker over the store until `jobId` has ended, with the full scan replaced by a captured
 * run's findings: everything after the scan — the KEV match of the site's disclosed versions, the assessment, the
 * grade, the job result, the completion's audit event — is the worker's own code.
 */
export async function completeWithCapturedScan(t: TestServer, jobId: string, output: JobOutput): Promise<void> {
  const { store, secrets, now, logger } = t.server.deps;
  const worker = new Worker(
    { store, secrets, now, logger, executors: { full: async () => output } },
    {
      concurrency: 1,
      leaseMs: 60_000,
      pollMs: 20,
      webhooks: { allowPrivateTargets: false, extraCaPem: [], retryBaseMs: 1000 },
    },
  );
  worker.start();
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const job = await store.db.selectFrom("jobs").select("status").where("id", "=", jobId).executeTakeFirstOrThrow();
      if (job.status === "completed") return;
      if (job.status === "failed") throw new Error(`fixture scan ${jobId} failed`);
      if (Date.now() > deadline) throw new Error(`fixture scan ${jobId} did not complete`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await worker.stop(1000);
  }
}

/**
 * A practice with every kind of data the service keeps about one, made as its people and systems make it (over
 * HTTPS where a caller would, through the services where an operator or a feed import would):
 *
 * - external: a full scan the owner dispatched, completed by the worker with a captured run's findings (exposed
 *   RDP, legacy TLS, trackers on patient pages, DMARC missing, a disclosed IIS version, …);
 * - internal: two scanner hosts enrolled with a deploy token, each upload signed — frontdesk-01 with an
 *   unencrypted ePHI volume, server-01 whose inventory lists Apache HTTP Server 2.4.48, matched to CISA KEV
 *   CVE-2021-40438 (a finding id with upper case), and an end-of-life PHP;
 * - administrative: an incident that is a breach, risk-assessment responses with gaps and the SRA, three
 *   generated policies, a training roster with an overdue member, three business associates (one with PHI access
 *   and no BAA, whose domain's external grade is stored);
 * - intelligence: the KEV catalogue entry and an HHS OCR export with the practice's own report;
 * - a second scan dispatched and left pending, a spare scanner and a spare deploy token, and a signed audit
 *   checkpoint over all of it.
 *
 * Every operation of the catalogue has something to answer about it. The server's clock must be on or after
 * 2026-11-22 (the scanner documents' date); the fixture takes about half a second.
 */
export async function fullyEvidencedPractice(
  t: TestServer,
  o: { npi?: string; domain?: string; name?: string; state?: string } = {},
): Promise<FullyEvidencedPractice> {
  const deps = t.server.deps;
  const npi = o.npi ?? DEFAULT_NPI;
  const domain = o.domain ?? CAPTURED_DOMAIN;
  const name = o.name ?? "Riverside Orthopaedics";
  const state = o.state ?? "OH";
  const now = deps.now();
  const owner = await accountWithKey(deps, {
    plan: "professional",
    tier: "bulk",
    credits: 100_000,
    name: `${name} Group`,
  });
  await addPractice(deps, { npi, name, domain, website: `https://www.${domain}`, state, accountId: owner.accountId });
  // The practice is in the NPPES directory too, with its endpoints (the candidate domains of a claim).
  await importDirectoryRecordFor(deps, { npi, name, state, domain });
  await importKev(deps, feed(KEV_CATALOGUE));
  await importHhsBreaches(deps, feed(hhsExport(name, state)));

  const key = { "X-API-Key": owner.apiKey };
  const bearer = { Authorization: `Bearer ${owner.apiKey}` };
  const post = (path: string, headers: Record<string, string>, body: unknown) =>
    t.request(path, { method: "POST", headers, body });

  // External: a full scan, dispatched as a partner does, completed by the worker.
  const dispatched = expect2xx("dispatch", await post("/v1/a2a/scans/dispatch", key, { npi }));
  const completedJobId = dispatched.json.job_id as string;
  await completeWithCapturedScan(t, completedJobId, capturedExternalScan(domain));

  // Internal: two scanners, signed uploads; a third registered and idle.
  const enrolment = await enrolledPracticeFor(t, owner.apiKey, npi, 3);
  const frontdesk = await enrolment.enrol("frontdesk-01");
  const server = await enrolment.enrol("server-01");
  const spare = await enrolment.enrol("spare-01");
  const completedAt = new Date(Math.min(now.getTime(), Date.parse("2026-11-22T01:00:05.000Z")));
  const dated = (doc: ScanResultDocument): ScanResultDocument => ({
    ...doc,
    started_at: new Date(completedAt.getTime() - 5000).toISOString(),
    completed_at: completedAt.toISOString(),
  });
  expect2xx(
    "upload frontdesk-01",
    await enrolment.upload(
      frontdesk,
      dated(scanDocument(frontdesk.agentId, { hostname: "frontdesk-01", unencrypted: true })),
    ),
  );
  expect2xx(
    "upload server-01",
    await enrolment.upload(
      server,
      dated(
        inventoryScanDocument(server.agentId, {
          hostname: "server-01",
          software: [
            { name: "Apache HTTP Server", version: "2.4.48" },
            { name: "php", version: "7.4.33" },
          ],
          eolProducts: [
            {
              kind: "software",
              name: "php",
              version: "7.4.33",
              product: "php",
              cycle: "7.4",
              status: "eol",
              eol: "2022-11-28",
            },
          ],
          eolFindings: [
            {
              id: "eol.end_of_life_software:php@7.4",
              check_id: "eol.end_of_life_software",
              source: "internal",
              category: "asset_management",
              severity: "high",
              title: "php 7.4.33 is past its end of life (2022-11-28)",
              detail: "PHP 7.4 no longer receives security fixes.",
              evidence: { product: "php", cycle: "7.4", eol: "2022-11-28" },
              remediation: "Upgrade to a supported PHP release.",
              controls: ["164.308(a)(1)(ii)(B)"],
            },
          ],
        }),
      ),
    ),
  );

  // Administrative records, kept by the practice manager (Group A) and the BAA tool.
  const incident = expect2xx(
    "incident",
    await post("/v1/incidents", bearer, {
      title: "Laptop stolen from a car",
      category: "theft",
      discovered_on: day(now, -20),
      occurred_on: day(now, -21),
      phi_involved: true,
      individuals_affected: 740,
      residents_by_state: { [state]: 700 },
    }),
  );
  expect2xx(
    "risk assessment",
    await post("/v1/risk-assessment", bearer, {
      responses: {
        "basics.security_official": { answer: "yes" },
        "basics.asset_inventory": { answer: "partial", note: "servers only" },
        "workforce.mfa": { answer: "no" },
        "data.encryption_at_rest": { answer: "yes" },
      },
    }),
  );
  expect2xx("policies", await post("/v1/policies/generate", bearer, { policies: [1, 2, 3] }));
  expect2xx(
    "training",
    await post("/v1/training/records", bearer, {
      members: [
        { member_id: "e1", name: "Dana Ortiz", role: "office manager", hired_on: "2020-01-06" },
        { member_id: "e2", name: "Sam Lee", role: "front desk", hired_on: "2021-03-15" },
      ],
      completions: [
        { member_id: "e1", completed_on: day(now, -30) },
        { member_id: "e2", completed_on: day(now, -500) },
      ],
    }),
  );
  const vendorDomain = `cloudfax.${domain}`;
  for (const vendor of [
    { name: "CloudFax", domain: vendorDomain, phi_access: true, baa_status: "none" },
    { name: "Paper Shredding", phi_access: false, baa_status: "none" },
    {
      name: "EHR Hosting",
      phi_access: true,
      baa_status: "signed",
      signed_on: day(now, -340),
      expires_on: day(now, 20),
    },
  ])
    expect2xx("baa", await post(`/v1/a2a/baa/${npi}`, key, { action: "upsert", vendor }));
  // The vendor's domain was graded by an earlier call (reused for 30 days): no scan runs for it.
  await deps.store.db
    .insertInto("vendor_domain_grades")
    .values({ domain: vendorDomain, grade: "D", score: 64, detail: "external scan", scanned_at: now.toISOString() })
    .onConflict((oc) => oc.column("domain").doNothing())
    .execute();

  // A scan left pending, and a deploy token nobody used.
  const pending = expect2xx("dispatch", await post("/v1/a2a/scans/dispatch", key, { npi }));
  expect2xx("deploy token", await post(`/v1/a2a/network/deploy/${npi}`, key, {}));
  const tokens = expect2xx("deploy tokens", await t.request(`/v1/a2a/network/deploy-tokens/${npi}`, { headers: key }))
    .json.deploy_tokens as { token_id: string; uses: number }[];
  const used = tokens.find((tk) => tk.uses > 0)!;
  const unused = tokens.find((tk) => tk.uses === 0)!;

  // The audit log, sequenced and checkpointed: every event so far has an inclusion proof.
  await sequenceAuditLog(deps.store);
  await createCheckpoint(deps.store, deps.auditLogKey!, deps.now());
  const event = await deps.store.db
    .selectFrom("audit_events")
    .select("id")
    .where("actor_account_id", "=", owner.accountId)
    .orderBy("id")
    .executeTakeFirstOrThrow();

  const findings = await deps.store.db
    .selectFrom("findings")
    .select(["finding_id", "source"])
    .where("npi", "=", npi)
    .where("resolved_at", "is", null)
    .execute();
  const idsOf = (source: string) => findings.filter((f) => f.source === source).map((f) => f.finding_id);
  const claim = await deps.store.db
    .selectFrom("practice_claims")
    .select("id")
    .where("npi", "=", npi)
    .where("status", "=", "proved")
    .executeTakeFirstOrThrow();
  return {
    npi,
    claimId: claim.id,
    name,
    state,
    domain,
    owner: { accountId: owner.accountId, apiKey: owner.apiKey, keyId: owner.keyId },
    completedJobId,
    pendingJobId: pending.json.job_id as string,
    agentIds: [frontdesk.agentId, server.agentId],
    spareAgentId: spare.agentId,
    deployTokenId: used.token_id,
    spareDeployTokenId: unused.token_id,
    auditEventId: Number(event.id),
    incidentId: incident.json.id as string,
    policyNumber: 1,
    vendorDomain,
    findingIds: { external: idsOf("external"), internal: idsOf("internal"), administrative: idsOf("administrative") },
  };
}
