import { randomUUID } from "node:crypto";
import { CREDIT_PRICES } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../catalogue/index.js";
import type { TestResponse } from "../lab/https-client.js";
import { issueApiKey, revokeApiKey } from "../services/api-keys.js";
import { accountWithKey, DMARC_MISSING, gradedPractice } from "../test-support/fixtures.js";
import { type FullyEvidencedPractice, fullyEvidencedPractice } from "../test-support/fully-evidenced-practice.js";
import { type ExampleCall, exampleCall } from "../test-support/operation-examples.js";
import { shouldRunPostgres } from "../test-support/postgres.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";
import { OWNED_RECORDS } from "./access.js";
import { mcpToolName, type Operation } from "./operation.js";

/*
 * The authorization matrix, generated from the catalogue: every operation, over every transport that serves it
 * (REST; JSON-RPC, MCP and A2A for agent methods), called with its declared example input — naming the owner's
 * practice and records (test-support/operation-examples.ts) — by each kind of caller. The answer must be the one the
 * operation's access rule implies (docs/security.md, "Who may read what"); a refused call changes no balance; what
 * a call took is what its answer says and, for a fixed price, the declared price; no answer to anyone but the owner
 * carries anything of the owner's. A new operation is in the matrix by being in the catalogue.
 */

const OTHER_NPI = "1245319599";

type Transport = "rest" | "jsonrpc" | "mcp" | "a2a";
type CallerKind = "none" | "other_group_header" | "expired" | "revoked" | "free" | "other" | "owner";
/** Callers in the order they call: the owner last, since some of its calls change the records (a revocation). */
const CALLERS: readonly CallerKind[] = ["none", "other_group_header", "expired", "revoked", "free", "other", "owner"];

/** What refusals of credentials and plans look like; any of them for an allowed call is a failure. */
const KEY_REFUSALS = new Set(["missing_credentials", "invalid_credentials", "key_revoked", "plan_required"]);

interface Outcome {
  readonly ok: boolean;
  /** The error code, when the call failed. */
  readonly code: string | null;
  readonly httpStatus: number;
  readonly text: string;
  /** The credits the answer says it took (REST, JSON-RPC, A2A: X-Credits-Charged; MCP: _meta["hcs/call"]). */
  readonly charged: number;
}

interface Fixture {
  readonly fx: FullyEvidencedPractice;
  readonly keys: Record<Exclude<CallerKind, "none" | "other_group_header">, string>;
  readonly accounts: readonly string[];
  readonly ownerAccount: string;
  /** The account whose balance a caller's call may change (none for calls without a usable key). */
  readonly accountOf: Partial<Record<CallerKind, string>>;
  /** What only the owner's records hold: scanner host names, the KEV match, ids of its records, its incident. */
  readonly secrets: readonly string[];
}

/** The answer the access rule implies for a caller: a refusal code, or null for "allowed" (no access refusal). */
function expectedRefusal(op: Operation, caller: CallerKind, transport: Transport): string | null {
  const access = op.access;
  // The MCP endpoint acts for an account: it wants a valid key before any MCP processing, whatever the tool
  // (docs/api.md, MCP); the public reputation snapshot is served without one at GET /api/reputation and JSON-RPC.
  const keyAtTheDoor = transport === "mcp";
  if (!keyAtTheDoor && (access.rule === "anyone" || access.rule === "credential")) return null;
  switch (caller) {
    case "none":
    case "other_group_header":
      return "missing_credentials";
    case "expired":
      return "invalid_credentials";
    case "revoked":
      return "key_revoked";
    case "free":
      if (op.group === "a") return "plan_required";
      if (access.rule === "anyone" || access.rule === "credential") return null;
      return access.rule === "owner" ? OWNED_RECORDS[access.of].others.code : null;
    case "other":
      return access.rule === "owner" ? OWNED_RECORDS[access.of].others.code : null;
    case "owner":
      return null;
  }
}

function keyHeaders(op: Operation, transport: Transport, caller: CallerKind, f: Fixture): Record<string, string> {
  if (caller === "none") return {};
  const key = caller === "other_group_header" ? f.keys.owner : f.keys[caller];
  const bearer = { Authorization: `Bearer ${key}` };
  const header = { "X-API-Key": key };
  if (transport !== "rest") return header;
  const groupA = op.group === "a" || op.group === "a-open";
  // The other group's header: Group A's Bearer on a Group B route, Group B's X-API-Key on a Group A route.
  if (caller === "other_group_header") return groupA ? header : bearer;
  return groupA ? bearer : header;
}

/**
 * A JSON-RPC answer (JSON-RPC, A2A, MCP) as an outcome: the HCS code of an error (`data.code`), or the error body's
 * code of an HTTP refusal made before the protocol (MCP refuses a missing key with 401 and the REST error body).
 */
const statedCharge = (res: TestResponse) => Number(res.headers["x-credits-charged"] ?? 0);

function rpcOutcome(res: TestResponse): Outcome {
  const json = res.json as
    | { result?: unknown; error?: { code: number | string; data?: { code?: string } } }
    | undefined;
  const error = json?.error;
  if (error) {
    const code = error.data?.code ?? (typeof error.code === "string" ? error.code : `jsonrpc:${error.code}`);
    return { ok: false, code, httpStatus: res.status, text: res.text, charged: statedCharge(res) };
  }
  return { ok: res.status < 400, code: null, httpStatus: res.status, text: res.text, charged: statedCharge(res) };
}

async function call(
  t: TestServer,
  op: Operation,
  transport: Transport,
  caller: CallerKind,
  f: Fixture,
  example: ExampleCall,
): Promise<Outcome> {
  const input = example.input;
  const headers = keyHeaders(op, transport, caller, f);
  if (transport === "rest") {
    const r = example.rest;
    const res = await t.request(r.path, {
      method: r.method,
      headers: { ...r.headers, ...headers },
      ...(r.body === undefined ? {} : { body: r.body }),
      timeoutMs: 60_000,
    });
    const code =
      res.status >= 400 ? ((res.json as { error?: { code?: string } } | undefined)?.error?.code ?? null) : null;
    return { ok: res.status < 400, code, httpStatus: res.status, text: res.text, charged: statedCharge(res) };
  }
  if (transport === "jsonrpc") {
    const res = await t.request("/api/a2a", {
      method: "POST",
      headers,
      body: { jsonrpc: "2.0", id: 1, method: op.method, params: input },
      timeoutMs: 60_000,
    });
    return rpcOutcome(res);
  }
  if (transport === "a2a") {
    const res = await t.request("/api/a2a", {
      method: "POST",
      headers: { ...headers, "A2A-Version": "1.0" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: {
          message: {
            messageId: randomUUID(),
            role: "ROLE_USER",
            parts: [{ data: { skill: op.method, params: input } }],
          },
          // A scan's task is answered at once (accepted), not after the job.
          configuration: { returnImmediately: true },
        },
      },
      timeoutMs: 60_000,
    });
    return rpcOutcome(res);
  }
  const res = await t.request("/mcp", {
    method: "POST",
    headers: {
      ...headers,
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-06-18",
    },
    body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: mcpToolName(op.method!), arguments: input } },
    timeoutMs: 60_000,
  });
  if (res.status >= 400) return rpcOutcome(res);
  const json = res.json as {
    result?: {
      isError?: boolean;
      _meta?: { "hcs/error"?: { code?: string }; "hcs/call"?: { credits_charged?: number } };
    };
    error?: { code: number };
  };
  const base = {
    httpStatus: res.status,
    text: res.text,
    charged: json.result?._meta?.["hcs/call"]?.credits_charged ?? 0,
  };
  if (json.error) return { ...base, ok: false, code: `jsonrpc:${json.error.code}` };
  if (json.result?.isError) return { ...base, ok: false, code: json.result._meta?.["hcs/error"]?.code ?? null };
  return { ...base, ok: true, code: null };
}

async function balances(t: TestServer, accounts: readonly string[]): Promise<Record<string, number>> {
  const rows = await t.server.deps.store.db
    .selectFrom("accounts")
    .select(["id", "credits"])
    .where("id", "in", [...accounts])
    .execute();
  return Object.fromEntries(rows.map((r) => [r.id, r.credits]));
}

/** The owner's practice with every kind of data the service keeps (fullyEvidencedPractice), and a key per caller. */
async function matrixFixture(t: TestServer): Promise<Fixture> {
  const deps = t.server.deps;
  const fx = await fullyEvidencedPractice(t);
  const other = await accountWithKey(deps, { plan: "professional", tier: "bulk", credits: 1_000_000 });
  const free = await accountWithKey(deps, { plan: "free", tier: "standard", credits: 500 });
  await gradedPractice(deps, other.accountId, OTHER_NPI, [DMARC_MISSING]);
  const revoked = await issueApiKey(deps, { accountId: fx.owner.accountId });
  await revokeApiKey(deps, revoked.keyId);
  const expired = await issueApiKey(deps, { accountId: fx.owner.accountId });
  await deps.store.db
    .updateTable("api_keys")
    .set({ expires_at: new Date(deps.now().getTime() - 86_400_000).toISOString() })
    .where("id", "=", expired.keyId)
    .execute();
  deps.store.keys.forgetAll();
  return {
    fx,
    keys: {
      owner: fx.owner.apiKey,
      other: other.apiKey,
      free: free.apiKey,
      revoked: revoked.apiKey,
      expired: expired.apiKey,
    },
    accounts: [fx.owner.accountId, other.accountId, free.accountId],
    ownerAccount: fx.owner.accountId,
    accountOf: { owner: fx.owner.accountId, other: other.accountId, free: free.accountId },
    secrets: [
      "frontdesk-01",
      "server-01",
      "spare-01",
      "CVE-2021-40438",
      "Laptop stolen from a car",
      fx.completedJobId,
      fx.pendingJobId,
      fx.incidentId,
      fx.spareAgentId,
      fx.spareDeployTokenId,
      ...fx.agentIds,
      ...fx.findingIds.internal,
    ],
  };
}

const transportsOf = (op: Operation): Transport[] => [
  ...(op.rest ? (["rest"] as const) : []),
  ...(op.method ? (["jsonrpc", "mcp", "a2a"] as const) : []),
];

describe("every operation's declared example is a valid input", () => {
  it.each(CATALOGUE.operations.map((op) => [op.id, op] as const))("%s", (_id, op) => {
    const parsed = op.input.safeParse(op.example);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
});

function matrixSuite(engine: "sqlite" | "postgres") {
  describe(`the authorization matrix on ${engine}`, () => {
    let t: TestServer;
    let f: Fixture;
    // A clock that moves a second each time the server reads it, so that the matrix's few hundred calls spread over
    // many rate-limit windows (a free key allows 60 a minute) without waiting.
    let tick = 0;
    const start = Date.parse("2026-11-22T12:00:00.000Z");
    beforeAll(async () => {
      t = await startTestServer({ engine, now: () => new Date(start + 1000 * tick++) });
      f = await matrixFixture(t);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    const cases = CATALOGUE.operations.flatMap((op) =>
      transportsOf(op).map((transport) => [op.id, transport, op] as const),
    );

    it.each(cases)("%s over %s", async (_id, transport, op) => {
      const failures: string[] = [];
      for (const caller of CALLERS) {
        // The agent endpoints take a key in either header: there is no "other group's header" there.
        if (caller === "other_group_header" && transport !== "rest") continue;
        const example = await exampleCall(t, f.fx, op);
        const before = await balances(t, f.accounts);
        const outcome = await call(t, op, transport, caller, f, example);
        const after = await balances(t, f.accounts);
        const expected = expectedRefusal(op, caller, transport);
        const where = `${caller}: ${outcome.httpStatus} ${outcome.code ?? "ok"}`;
        if (outcome.httpStatus >= 500 || outcome.code === "internal")
          failures.push(`${where}: server error ${outcome.text.slice(0, 200)}`);
        if (expected !== null) {
          if (outcome.ok || outcome.code !== expected) failures.push(`${where}: expected ${expected}`);
          if (JSON.stringify(after) !== JSON.stringify(before))
            failures.push(`${where}: a refused call changed a balance`);
        } else if (outcome.code !== null) {
          const ownerRule = op.access.rule === "owner" ? OWNED_RECORDS[op.access.of] : null;
          const accessCodes = new Set([
            ...KEY_REFUSALS,
            "forbidden",
            ...(ownerRule ? [ownerRule.others.code, ownerRule.missing.code] : []),
          ]);
          if (caller === "owner" || op.access.rule === "anyone" || op.access.rule === "credential") {
            if (KEY_REFUSALS.has(outcome.code) || (caller === "owner" && accessCodes.has(outcome.code)))
              failures.push(`${where}: an allowed call was refused`);
          }
        }
        // What the answer says it took is what the caller's balance lost; a fixed price is the declared one.
        const account = f.accountOf[caller];
        const taken = account ? before[account]! - after[account]! : 0;
        // (A refund — a cancelled job's — is no charge: it is stated in the job, not in these headers.)
        if ((taken > 0 || outcome.charged > 0) && taken !== outcome.charged)
          failures.push(`${where}: ${taken} credits taken, the answer says ${outcome.charged}`);
        const price = op.price;
        if (outcome.ok && account && (price?.kind === "metered" || price?.kind === "charged_by_handler")) {
          const due = CREDIT_PRICES[price.operation];
          if (outcome.charged !== due)
            failures.push(`${where}: charged ${outcome.charged}, the declared price is ${due}`);
        }
        // A deploy token or an agent's signature is the owner's credential: its holder acts for the owner.
        if (caller !== "owner" && op.access.rule !== "credential") {
          if (after[f.ownerAccount] !== before[f.ownerAccount]) failures.push(`${where}: the owner's balance changed`);
          const sent = JSON.stringify(example.input);
          for (const secret of f.secrets.filter((s) => !sent.includes(s)))
            if (outcome.text.includes(secret)) failures.push(`${where}: the answer carries the owner's ${secret}`);
        }
      }
      expect(failures.join("\n"), `${op.id} over ${transport}`).toBe("");
    });
  });
}

matrixSuite("sqlite");
describe.skipIf(!(await shouldRunPostgres()))("postgres", () => matrixSuite("postgres"));
