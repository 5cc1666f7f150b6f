import { describe, expect, it } from "vitest";
import { agentSkills } from "../a2a/agent-card.js";
import { CATALOGUE } from "../catalogue/index.js";
import { countsAsRequest } from "./message-count.js";
import { mcpTools } from "./tools.js";

const tools = mcpTools(CATALOGUE.operations).operations;
const call = (name: string, args: unknown = { npi: "1234567893" }, id: unknown = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("how a POST to /mcp is counted", () => {
  it("leaves a served tool call to invoke, which counts it as REST counts a call", () => {
    expect(countsAsRequest(call("hipaa_grade"), tools)).toBe(false);
    expect(countsAsRequest([call("hipaa_grade", undefined, 1), call("hipaa_findings", {}, "b")], tools)).toBe(false);
  });

  it("counts everything else once per request", () => {
    for (const body of [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: {} },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      call("hipaa_nothing"),
      call("hipaa_grade", "not an object"),
      call("hipaa_grade", {}, null),
      { ...call("hipaa_grade"), jsonrpc: "1.0" },
      [],
      undefined, // not JSON
    ])
      expect(countsAsRequest(body, tools), JSON.stringify(body)).toBe(true);
    expect(countsAsRequest([call("hipaa_grade"), { jsonrpc: "2.0", id: 9, method: "ping" }], tools)).toBe(true);
  });

  it("counts a call of a public operation once for the request (invoke never counts those, but /mcp needs a key)", () => {
    const publicTools = agentSkills(CATALOGUE.operations).filter((op) => op.group === "public");
    expect(publicTools.map((op) => op.method)).toEqual(["hipaa.reputation"]);
    expect(countsAsRequest(call("hipaa_reputation", {}), tools)).toBe(true);
  });
});
