import { createHash } from "node:crypto";
import { AgentCard } from "@a2a-js/sdk";
import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import SwaggerParser from "@apidevtools/swagger-parser";
import { canonicalJson, ReputationSnapshotSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { agentSkills } from "../a2a/agent-card.js";
import { CATALOGUE } from "../catalogue/index.js";
import { documentedOperations } from "../openapi/document.js";
import { fetchTrustingCa } from "../test-support/a2a-client.js";
import { accountWithKey, completedJobRow, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";
import { publicRoutesOf } from "./index.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe("A2A agent card", () => {
  it("is an A2A v1.0 card the @a2a-js/sdk resolver reads, pointing at the JSON-RPC endpoint", async () => {
    const card = await new DefaultAgentCardResolver({ fetchImpl: fetchTrustingCa(t.ca) }).resolve(t.url);
    expect(card.name).toContain("HCS");
    expect(card.supportedInterfaces[0]).toMatchObject({
      url: `${t.url}/api/a2a`,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    });
    expect(card.securitySchemes.ApiKey?.scheme).toEqual({
      $case: "apiKeySecurityScheme",
      value: { description: "Group B API key", location: "header", name: "X-API-Key" },
    });
    expect(card.defaultInputModes).toEqual(["application/json"]);
    expect(card.provider?.organization).toBe("HCS");
    // The card's skills are exactly the catalogue's served agent methods.
    expect(card.skills.map((s) => s.id).sort()).toEqual(
      agentSkills(CATALOGUE.operations)
        .map((op) => op.method)
        .sort(),
    );
    expect(card.capabilities?.pushNotifications).toBeFalsy();
  });

  it("round-trips through the SDK's AgentCard codec unchanged (no unknown or mistyped fields)", async () => {
    const res = await t.request("/.well-known/agent-card.json");
    const json = res.json;
    expect(AgentCard.toJSON(AgentCard.fromJSON(json))).toEqual(json);
    const pricing = json.capabilities.extensions[0].params;
    expect(pricing.credits_per_call["hipaa.grade"]).toBe(25);
    expect(pricing.credits_per_call["hipaa.scan"]).toBe(150);
    expect(pricing.rate_limits_per_minute).toEqual({ standard: 60, bulk: 600 });
  });

  it("publishes the audit log's verifier key, the same the well-known URL serves", async () => {
    const card = (await t.request("/.well-known/agent-card.json")).json;
    const audit = card.capabilities.extensions.find((e: { uri: string }) => e.uri.endsWith("/audit-log/v1"));
    const served = (await t.request("/.well-known/hcs-audit-log-key")).text.trim();
    expect(audit.params.verifier_key).toBe(served);
    expect(audit.params.event_proof_url).toBe(`${t.url}/v1/a2a/audit/events/{id}/proof`);
  });

  it("is cacheable: Cache-Control and a strong ETag; 304 on If-None-Match", async () => {
    const res = await t.request("/.well-known/agent-card.json");
    expect(res.headers["cache-control"]).toBe("public, max-age=300");
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await t.request("/.well-known/agent-card.json", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });
});

describe("OpenAPI document", () => {
  it("is valid OpenAPI 3.1 (swagger-parser) and lists exactly the served REST operations and public documents", async () => {
    const res = await t.request("/openapi-a2a.yaml");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("yaml");
    const doc = parseYaml(res.text);
    const validated = (await SwaggerParser.validate(structuredClone(doc))) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(validated.openapi).toBe("3.1.0");
    const documented = documentedOperations(CATALOGUE);
    const expected = [
      ...documented.map((op) => `${op.rest!.method} ${op.rest!.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`),
      ...publicRoutesOf(CATALOGUE)
        .filter((r) => !r.internal)
        .map((r) => `get ${r.path}`),
    ].sort();
    const listed = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`))
      .sort();
    expect(listed).toEqual(expected);
    for (const op of documented) {
      const path = op.rest!.path.replace(/:([A-Za-z_]+)/g, "{$1}");
      const success = Object.keys(doc.paths[path][op.rest!.method].responses).filter((s) => s.startsWith("2"));
      const declared = [op.rest!.status ?? 200, ...(op.rest!.otherStatuses ?? []).map((o) => o.status)];
      expect(success, `${op.rest!.method} ${path}`).toEqual(declared.map(String).sort());
    }
    // Every operation is served now; each is advertised.
    expect(doc.paths["/v1/a2a/breach/{npi}"].get).toBeDefined();
    // The lookup of an unregistered entity: both query parameters required, the same answer as by NPI.
    const byName = doc.paths["/v1/a2a/breach"].get;
    expect(
      byName.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required]),
    ).toEqual([
      ["name", "query", true],
      ["state", "query", true],
    ]);
    expect(byName.responses["200"].content["application/json"].schema).toEqual(
      doc.paths["/v1/a2a/breach/{npi}"].get.responses["200"].content["application/json"].schema,
    );
    expect(Object.keys(doc.paths["/v1/a2a/policies/{npi}/{number}"].get.responses["200"].content)).toEqual([
      "text/markdown",
      "text/html",
    ]);
    const grade = doc.paths["/v1/a2a/grade/{npi}"].get;
    expect(grade.security).toEqual([{ ApiKey: [] }]);
    expect(Object.keys(grade.responses).sort()).toEqual(["200", "400", "401", "402", "403", "404", "429"]);
    expect(grade.responses["200"].headers["X-RateLimit-Remaining"]).toBeDefined();
    expect(doc.components.schemas.GradeRecord.properties.compliance_score).toMatchObject({
      type: "integer",
      minimum: 0,
      maximum: 100,
    });
    // Operator endpoints and Group A stay out of the agent-facing document.
    expect(doc.paths["/healthz"]).toBeUndefined();
    expect(doc.paths["/v1/practice"]).toBeUndefined();
  });
});

describe("GET /api/reputation", () => {
  it("reports totals from the store with a SHA-256 over the canonical JSON of the fields", async () => {
    const a = await accountWithKey(t.server.deps);
    await gradedPractice(t.server.deps, a.accountId, "1679576722");
    await completedJobRow(t.server.deps, a.accountId, "1679576722");
    // The average response time is over audited (authenticated) API calls.
    expect((await t.request("/v1/a2a/grade/1679576722", { headers: { "X-API-Key": a.apiKey } })).status).toBe(200);
    const fresh = await startTestServerLikeCacheBypass();
    expect(ReputationSnapshotSchema.parse(fresh)).toBeTruthy();
    const { sha256, ...fields } = fresh;
    expect(sha256).toBe(createHash("sha256").update(canonicalJson(fields)).digest("hex"));
    expect(fresh.practices_served).toBe(1);
    expect(fresh.total_scans).toBe(1);
    expect(fresh.average_response_time_ms).toBeGreaterThan(0);
  });

  it("is cached briefly: a second call within 10 s returns the same snapshot", async () => {
    const a = await t.request("/api/reputation");
    const b = await t.request("/api/reputation");
    expect(b.json).toEqual(a.json);
    expect(a.headers["cache-control"]).toBe("public, max-age=10");
  });
});

// The reputation cache lives for 10 s per app; the first call of this file happens after the data was added.
async function startTestServerLikeCacheBypass() {
  return (await t.request("/api/reputation")).json;
}
