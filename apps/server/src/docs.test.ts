import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CREDIT_PRICES, PLAN_TABLE, PLANS } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { DECLARATIONS } from "./catalogue/declarations.js";
import { CONFIG_VARIABLES } from "./config.js";
import { accessTableRows } from "./operations/describe.js";
import { markedTableRows } from "./test-support/markdown-table.js";
import { signWebhook } from "./webhooks/signature.js";

const DOCS = join(import.meta.dirname, "..", "..", "..", "docs");
const read = (name: string) => readFileSync(join(DOCS, name), "utf8");

describe("docs stay true", () => {
  it("operations.md lists every configuration variable with its default", () => {
    const doc = read("operations.md");
    const rows = doc
      .split("\n")
      .filter((l) => l.startsWith("| `"))
      .map((l) =>
        l
          .split("|")
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    const table = Object.fromEntries(rows.map(([name, def]) => [name!.replace(/`/g, ""), def]));
    for (const v of CONFIG_VARIABLES) expect(table[v.name], v.name).toBe(v.default);
  });

  it("api.md documents every Group B and Group A route", () => {
    const doc = read("api.md");
    for (const op of DECLARATIONS.filter((x) => x.rest && x.group !== "public")) {
      const path = op.rest!.path.replace(/:([a-z_]+)/g, "{$1}");
      expect(doc.includes(`\`${path}`), `${op.rest!.method.toUpperCase()} ${path}`).toBe(true);
    }
  });

  it("api.md's method table is the catalogue's agent methods, with their prices and REST twins", () => {
    const doc = read("api.md");
    const rows = markedTableRows(doc, "method-table");
    const documented = rows.map(([method]) => method!.replace(/`/g, ""));
    const agentMethods = DECLARATIONS.filter((op) => op.method);
    expect(documented).toEqual(agentMethods.map((op) => op.method));
    for (const op of agentMethods) {
      const [, , credits, twin] = rows.find(([m]) => m === `\`${op.method}\``)!;
      const path = op.rest!.path.replace(/:([a-z_]+)/g, "{$1}");
      expect(twin, op.method).toBe(`\`${op.rest!.method.toUpperCase()} ${path}\``);
      const price = op.price;
      if (price?.kind === "metered" || price?.kind === "charged_by_handler")
        expect(credits, op.method).toBe(String(CREDIT_PRICES[price.operation]));
      else if (price?.kind === "computed") expect(credits, op.method).toBe(price.describe);
      else expect(credits?.startsWith("0"), `${op.method}: ${credits}`).toBe(true);
    }
  });

  it("api.md's price and plan tables are the plan table's, row by row", () => {
    const doc = read("api.md");
    const prices = markedTableRows(doc, "price-table").map(([op, credits]) => [op, credits]);
    expect(prices).toEqual(Object.entries(PLAN_TABLE.prices).map(([op, credits]) => [`\`${op}\``, String(credits)]));
    const yes = (b: boolean) => (b ? "yes" : "no");
    expect(markedTableRows(doc, "plan-table")).toEqual(
      PLANS.map((plan) => {
        const p = PLAN_TABLE.plans[plan];
        return [
          `\`${plan}\``,
          yes(p.group_a),
          String(p.opening_credits),
          String(p.annual_minimum),
          yes(p.self_service),
          p.summary,
        ];
      }),
    );
  });

  it("security.md's access table is the catalogue's access rules, operation by operation", () => {
    const doc = read("security.md");
    const rows = markedTableRows(doc, "access-table");
    expect(rows).toEqual(accessTableRows(DECLARATIONS));
  });

  it("the receiver code in webhooks.md verifies real signatures and refuses forgeries", async () => {
    const doc = read("webhooks.md");
    const code = /```js webhook-verify\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(code).toBeDefined();
    const mod = await import(`data:text/javascript,${encodeURIComponent(code!)}`);
    const verify = mod.verifyHcsWebhook as (h: string, body: string, secret: string, now?: number) => boolean;
    const body = '{"job_id":"j1","status":"completed"}';
    const now = new Date("2026-11-22T12:00:00Z");
    const t = Math.floor(now.getTime() / 1000);
    const header = signWebhook("whsec_test", body, now);
    expect(verify(header, body, "whsec_test", t)).toBe(true);
    expect(verify(header, body.replace("completed", "failed"), "whsec_test", t)).toBe(false);
    expect(verify(header, body, "whsec_other", t)).toBe(false);
    expect(verify(header, body, "whsec_test", t + 301)).toBe(false);
    expect(verify(`${header},v1=${"0".repeat(64)}`, body, "whsec_test", t)).toBe(true);
    expect(verify("garbage", body, "whsec_test", t)).toBe(false);
  });
});
