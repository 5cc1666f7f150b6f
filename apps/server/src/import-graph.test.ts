import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph, importPath, isTestSupport } from "./test-support/import-graph.js";

// The server's layers and the arrows allowed between them (docs/architecture.md "Layers and the arrows between
// them"), held over every module of src/ but tests and test support: static, type-only, re-exported and dynamic
// imports alike.

const graph = importGraph(import.meta.dirname, isTestSupport);
const top = (file: string) => file.split("/")[0]!;
const SRC = import.meta.dirname;

/** Arrows the rules forbid that are still there, each with the change that removes it. Only ever shrinks. */
const KNOWN: readonly { readonly from: string; readonly to: string }[] = [];
const known = (from: string, to: string) => KNOWN.some((k) => k.from === from && k.to === to);

/** Every arrow from a module matching `from` to one matching `to`, but the known ones. */
function arrows(from: (f: string) => boolean, to: (t: string) => boolean): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph)
    if (from(file)) for (const t of targets) if (to(t) && !known(file, t)) out.push(`${file} → ${t}`);
  return out;
}

describe("the server's import graph", () => {
  it("reads every module with its static, type-only and dynamic imports", () => {
    expect(graph.size).toBeGreaterThan(400);
    expect(graph.get("app.ts")).toContain("http/hot-routes.ts");
    // A dynamic import: the portal is loaded on its first request.
    expect(graph.get("portal/web/lazy-portal.ts")).toContain("portal/web/portal-router.tsx");
  });

  it("has no import cycle", () => {
    const found = importCycles(graph).filter(
      // The catalogue ↔ discovery ↔ OpenAPI circle goes when the documents are served as documents of the catalogue.
      (c) => c.join(" ") !== "openapi/document.ts catalogue/index.ts documents/discovery.ts",
    );
    expect(found).toEqual([]);
  });

  it("operations/ never imports http/: the pipeline serves every transport", () => {
    expect(
      arrows(
        (f) => top(f) === "operations",
        (t) => top(t) === "http",
      ),
    ).toEqual([]);
  });

  it("store/migrations/ imports nothing outside store/: a migration must mean tomorrow what it meant", () => {
    expect(
      arrows(
        (f) => f.startsWith("store/migrations/"),
        (t) => !t.startsWith("store/"),
      ),
    ).toEqual([]);
  });

  it("the catalogue imports none of the documents made from it (agent card, OpenAPI, public routes)", () => {
    expect(
      arrows(
        (f) => top(f) === "catalogue",
        (t) => ["documents", "openapi", "a2a"].includes(top(t)),
      ),
    ).toEqual([]);
  });

  it("portal/ never imports cli/: the portal is a transport of the running server", () => {
    expect(
      arrows(
        (f) => top(f) === "portal",
        (t) => top(t) === "cli",
      ),
    ).toEqual([]);
    expect(importPath(graph, "app.ts", "cli/context.ts")).toBeNull();
  });

  it("the accounting layer is one seam: outside accounting/ only accounting/index.ts is imported", () => {
    expect(
      arrows(
        (f) => top(f) !== "accounting",
        (t) => top(t) === "accounting" && t !== "accounting/index.ts",
      ),
    ).toEqual([]);
  });

  it("the accounting layer sits below the pipeline and every transport", () => {
    expect(
      arrows(
        (f) => top(f) === "accounting",
        (t) => ["http", "operations", "rpc", "mcp", "a2a", "portal", "catalogue", "documents", "cli"].includes(top(t)),
      ),
    ).toEqual([]);
  });

  it("only accounting/ writes the rate-limit counters, the balances and the ledger", () => {
    const writes =
      /insertInto\("credit_ledger"\)|insert into credit_ledger|insert into rate_limits|deleteFrom\("rate_limits"\)|update accounts set credits|credits: eb\(/;
    const writers = [...graph.keys()].filter(
      (f) => !f.startsWith("store/migrations/") && writes.test(readFileSync(join(SRC, f), "utf8")),
    );
    expect(writers.length).toBeGreaterThan(0);
    expect(writers.filter((f) => top(f) !== "accounting")).toEqual([]);
  });

  it("lists only known arrows that are still there", () => {
    expect(KNOWN.filter((k) => !graph.get(k.from)?.includes(k.to))).toEqual([]);
  });
});
