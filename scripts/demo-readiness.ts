// The sample practices' internal halves in `npm run demo`: each practice with one (sample-practices/practices/*.ts,
// `internal`) enrols a scanner host with a deploy token, uploads the scanner's own persona scan signed as hcs-scanner
// does, and its manager records its restore tests over Group A; once a checkpoint is signed over the evidence, the
// pass prints requirements 6 (backup and 72-hour restore readiness) and 13 (audit trail) per practice, against what
// each practice is built to show.
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { registrationProofMessage, UPLOAD_HEADERS, uploadSigningMessage } from "@hcs/protocol";
import { createCheckpoint } from "../apps/server/src/audit/checkpoints.js";
import { sequenceAuditLog } from "../apps/server/src/audit/sequencer.js";
import { httpRequestTo } from "../apps/server/src/lab/https-client.js";
import type { Lab } from "../apps/server/src/lab/lab.js";
import { personaScan, personaScanDocument } from "../apps/server/src/sample-practices/internal-half.js";

const DAY_MS = 86_400_000;

/** Runs the pass; returns false when a practice's requirements are not what it is built to show. */
export async function readinessPass(lab: Lab, say: (line: string) => void): Promise<boolean> {
  const call = async (path: string, o: { method?: string; headers?: Record<string, string>; body?: unknown }) => {
    const res = await httpRequestTo(`${lab.server.url}${path}`, { ca: lab.server.tls.caPem, ...o });
    if (res.status >= 400) throw new Error(`${o.method ?? "GET"} ${path} answered ${res.status}: ${res.text}`);
    return res;
  };
  const halves = lab.samples.practices.filter((p) => p.internal !== null);
  for (const p of halves) {
    const half = p.internal!;
    const scan = personaScan(half.persona);
    const deploy = await lab.request(`/v1/a2a/network/deploy/${p.npi}`, {});
    if (deploy.status !== 201) throw new Error(`deploy token for ${p.name}: ${deploy.status} ${deploy.text}`);
    const token = deploy.json.deploy_token as string;
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const raw = (publicKey.export({ format: "jwk" }) as { x: string }).x;
    const registered = await call("/v1/a2a/network/register", {
      method: "POST",
      body: {
        deploy_token: token,
        public_key: raw,
        proof: sign(null, Buffer.from(registrationProofMessage(token, raw)), privateKey).toString("base64url"),
        hostname: scan.host.hostname,
        platform: scan.host.platform,
        scanner_version: "0.1.0",
      },
    });
    const agentId = registered.json.agent_id as string;
    const doc = personaScanDocument(half.persona, agentId, new Date());
    const body = JSON.stringify(doc);
    const digest = createHash("sha256").update(body).digest("hex");
    await call("/v1/a2a/network/results", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        [UPLOAD_HEADERS.agent]: agentId,
        [UPLOAD_HEADERS.idempotencyKey]: doc.scan_id,
        [UPLOAD_HEADERS.signature]: sign(
          null,
          Buffer.from(uploadSigningMessage(agentId, doc.scan_id, digest)),
          privateKey,
        ).toString("base64url"),
      },
      body,
    });
    for (const { days_ago, ...test } of half.restoreTests) {
      const tested_on = new Date(Date.now() - days_ago * DAY_MS).toISOString().slice(0, 10);
      await call("/v1/restore-tests", {
        method: "POST",
        headers: { Authorization: `Bearer ${lab.apiKey}` },
        body: { npi: p.npi, tested_on, ...test },
      });
    }
    say(
      `${p.name}: scanner persona "${half.persona}" (${scan.host.hostname}) uploaded signed; ${half.restoreTests.length} restore test(s) recorded over Group A`,
    );
  }
  // The evidence in the hashed log and under a signed checkpoint (a serving process signs one a day).
  const { store, auditLogKey, now } = lab.server.deps;
  while ((await sequenceAuditLog(store)).sequenced > 0);
  await createCheckpoint(store, auditLogKey!, now());

  let agree = true;
  console.log("");
  console.log(`${"practice".padEnd(30)} ${"6 backup & restore".padEnd(20)} ${"13 audit trail".padEnd(20)} why`);
  for (const p of halves) {
    const state = (await lab.request(`/v1/a2a/compliance/${p.npi}`)).json as {
      requirements: { id: string; state: string; evidence: { state: string; detail: string }[] }[];
    };
    const r6 = state.requirements.find((r) => r.id === "backup_restore")!;
    const r13 = state.requirements.find((r) => r.id === "audit_trail")!;
    const expected = p.internal!.expected;
    const mark = (got: string, want: string) => (got === want ? got : `${got} (expected ${want})`);
    if (r6.state !== expected.backup_restore || r13.state !== expected.audit_trail) agree = false;
    const why = [...r6.evidence, ...r13.evidence].find((e) => e.state !== "met")?.detail ?? "all evidence met";
    console.log(
      `${p.name.slice(0, 30).padEnd(30)} ${mark(r6.state, expected.backup_restore).padEnd(20)} ${mark(r13.state, expected.audit_trail).padEnd(20)} ${why.slice(0, 110)}`,
    );
  }
  console.log("");
  return agree;
}
