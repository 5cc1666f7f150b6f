import { randomUUID } from "node:crypto";
import type { Operation } from "../operations/operation.js";
import { newAgentKeys, registrationBody, scanDocument, uploadHeaders } from "./agent-client.js";
import type { FullyEvidencedPractice } from "./fully-evidenced-practice.js";
import type { TestServer } from "./test-server.js";

/** A REST request: what {@link TestServer.request} sends. */
export interface RestRequest {
  readonly method: "GET" | "POST" | "PATCH";
  /** Path with its parameters filled in and, for a GET, the query string. */
  readonly path: string;
  readonly body?: string | Record<string, unknown>;
  readonly headers?: Record<string, string>;
}

/** A call of one operation that succeeds for the fixture's owner. */
export interface ExampleCall {
  /** The operation's input: JSON-RPC params, MCP tool arguments, an A2A data part's params. */
  readonly input: Record<string, unknown>;
  /** The same call over REST (the key header is the caller's to add). */
  readonly rest: RestRequest;
}

/**
 * Input values by field name, for every operation that takes the field: path parameters mostly, as text (REST reads
 * them from the path). Destructive operations act on the fixture's spare things (a pending job, an idle scanner, an
 * unused deploy token).
 */
function fieldValues(fx: FullyEvidencedPractice, op: Operation): Record<string, unknown> {
  return {
    npi: fx.npi,
    job_id: fx.completedJobId,
    claim_id: fx.claimId,
    agent_id: fx.spareAgentId,
    token_id: fx.spareDeployTokenId,
    // `id` names an incident for the operations its owner's rule says so, else an audit event.
    id: op.access.rule === "owner" && op.access.of === "incident" ? fx.incidentId : String(fx.auditEventId),
    number: String(fx.policyNumber),
  };
}

/** What an operation needs beyond {@link fieldValues}: its required body or query fields, or another target. */
const EXAMPLE_INPUTS: Readonly<Record<string, (fx: FullyEvidencedPractice) => Record<string, unknown>>> = {
  cancelJob: (fx) => ({ job_id: fx.pendingJobId }),
  // With results: the completed job's findings are in the list.
  listJobs: () => ({ include_results: true }),
  getBreachesByName: (fx) => ({ name: fx.name, state: fx.state }),
  batchGrades: (fx) => ({ npis: [fx.npi, "1234567893", "1234567890"], operation: "grade" }),
  createFreeKey: () => ({ email: `agent-${randomUUID().slice(0, 8)}@example.com`, organization: "Example Agents" }),
  validateWorkflow: (fx) => ({
    npi: fx.npi,
    workflow: {
      steps: [
        {
          from: "front desk",
          to: "billing service",
          system: "fax gateway",
          vendor: "CloudFax",
          data_types: ["demographic", "insurance", "clinical"],
          purpose: "payment",
          transport: "email_plain",
          stores_data: true,
          encrypted_at_rest: false,
          access_control: "shared_account",
          mfa: false,
        },
      ],
    },
  }),
};

/** The same input as a REST request of `op`: path parameters in the path, the rest as a query (GET) or JSON body. */
export function restRequestOf(op: Operation, input: Record<string, unknown>): RestRequest {
  const rest = op.rest!;
  const inPath = new Set<string>();
  const path = rest.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    inPath.add(name);
    return encodeURIComponent(String(input[name]));
  });
  const others = Object.entries(input).filter(([name]) => !inPath.has(name));
  if (rest.method === "get") {
    const query = new URLSearchParams(
      others.map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : String(value)]),
    ).toString();
    return { method: "GET", path: query ? `${path}?${query}` : path };
  }
  return { method: rest.method === "patch" ? "PATCH" : "POST", path, body: Object.fromEntries(others) };
}

/**
 * A call of `op` that succeeds for the fixture's owner. Built from the operation's declared example, with the fields
 * its input schema declares that {@link fieldValues} knows put in place of the example's ids, plus
 * {@link EXAMPLE_INPUTS}; a new operation needs nothing more than its declaration. Scanner registration and upload are made fresh (a deploy token is used once,
 * an upload is signed). Throws, naming the operation, when the input it built does not satisfy the schema.
 */
export async function exampleCall(t: TestServer, fx: FullyEvidencedPractice, op: Operation): Promise<ExampleCall> {
  if (op.id === "registerAgent") {
    const body = registrationBody(await freshDeployToken(t, fx), newAgentKeys(), `host-${randomUUID().slice(0, 6)}`);
    return { input: body, rest: { method: "POST", path: op.rest!.path, body } };
  }
  if (op.id === "uploadScanResults") {
    const token = await freshDeployToken(t, fx);
    const keys = newAgentKeys();
    const registered = await t.request("/v1/a2a/network/register", {
      method: "POST",
      body: registrationBody(token, keys, "upload-01"),
    });
    if (registered.status !== 201) throw new Error(`registration for the upload example: ${registered.text}`);
    const agentId = registered.json.agent_id as string;
    const doc = scanDocument(agentId, { hostname: "upload-01" });
    const body = JSON.stringify(doc);
    const headers = uploadHeaders(agentId, doc.scan_id, body, keys.privateKey);
    return { input: { agent_id: agentId, body }, rest: { method: "POST", path: op.rest!.path, body, headers } };
  }
  const shape = (op.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const known = fieldValues(fx, op);
  // The declaration's own example, its ids replaced by the fixture's records.
  const input: Record<string, unknown> = {
    ...(op.example as Record<string, unknown>),
    ...Object.fromEntries(
      // The schema's fields, and the example's (a union's, whose branches' shapes are not at hand).
      [...new Set([...Object.keys(shape), ...Object.keys(op.example as object)])]
        .filter((name) => name in known)
        .map((name) => [name, known[name]]),
    ),
  };
  Object.assign(input, EXAMPLE_INPUTS[op.id]?.(fx));
  const checked = op.input.safeParse(input);
  if (!checked.success)
    throw new Error(
      `no example input for ${op.id}: ${JSON.stringify(checked.error.issues)} — add one to EXAMPLE_INPUTS (test-support/operation-examples.ts)`,
    );
  return { input, rest: restRequestOf(op, input) };
}

/** A new one-use deploy token for the fixture's practice, issued over HTTPS by its owner. */
async function freshDeployToken(t: TestServer, fx: FullyEvidencedPractice): Promise<string> {
  const res = await t.request(`/v1/a2a/network/deploy/${fx.npi}`, {
    method: "POST",
    headers: { "X-API-Key": fx.owner.apiKey },
    body: {},
  });
  if (res.status !== 201) throw new Error(`deploy token: ${res.status} ${res.text}`);
  return res.json.deploy_token as string;
}
