import type { KeyObject } from "node:crypto";
import type { ScanResultDocument } from "@hcs/protocol";
import type { TestResponse } from "../lab/https-client.js";
import { newAgentKeys, registrationBody, uploadHeaders } from "./agent-client.js";
import { accountWithKey, gradedPractice } from "./fixtures.js";
import type { TestServer } from "./test-server.js";

export interface TestAgent {
  readonly agentId: string;
  readonly hostname: string;
  readonly privateKey: KeyObject;
}

export interface EnrolledPractice {
  readonly ownerKey: string;
  readonly deployToken: string;
  /** Registers a new scanner (fresh key pair) with the deploy token, over HTTPS; fails the test unless 201. */
  enrol(hostname: string): Promise<TestAgent>;
  /** A signed upload by `agent` over HTTPS: a document (its scan id), or raw text under `scanId`. */
  upload(agent: TestAgent, doc: ScanResultDocument | string, scanId?: string): Promise<TestResponse>;
}

/**
 * What the scanner tests need before any upload, done as a practice owner would: a Professional account owning a
 * graded practice, and a deploy token for it (usable `maxUses` times).
 */
export async function enrolledPractice(t: TestServer, npi: string, maxUses: number): Promise<EnrolledPractice> {
  const owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 1000 });
  await gradedPractice(t.server.deps, owner.accountId, npi);
  return enrolledPracticeFor(t, owner.apiKey, npi, maxUses);
}

/** {@link enrolledPractice} for a practice the owner of `ownerKey` already has: a deploy token, over HTTPS. */
export async function enrolledPracticeFor(
  t: TestServer,
  ownerKey: string,
  npi: string,
  maxUses: number,
): Promise<EnrolledPractice> {
  const owner = { apiKey: ownerKey };
  const issued = await t.request(`/v1/a2a/network/deploy/${npi}`, {
    method: "POST",
    headers: { "X-API-Key": owner.apiKey },
    body: { max_uses: maxUses },
  });
  if (issued.status !== 201) throw new Error(`deploy token refused: ${issued.status} ${issued.text}`);
  const deployToken = issued.json.deploy_token as string;
  return {
    ownerKey: owner.apiKey,
    deployToken,
    async enrol(hostname) {
      const keys = newAgentKeys();
      const res = await t.request("/v1/a2a/network/register", {
        method: "POST",
        body: registrationBody(deployToken, keys, hostname),
      });
      if (res.status !== 201) throw new Error(`registration refused: ${res.status} ${res.text}`);
      return { agentId: res.json.agent_id as string, hostname, privateKey: keys.privateKey };
    },
    upload(agent, doc, scanId) {
      const body = typeof doc === "string" ? doc : JSON.stringify(doc);
      const id = scanId ?? (doc as ScanResultDocument).scan_id;
      return t.request("/v1/a2a/network/results", {
        method: "POST",
        headers: uploadHeaders(agent.agentId, id, body, agent.privateKey),
        body,
        timeoutMs: 60_000,
      });
    },
  };
}
