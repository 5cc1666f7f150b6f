import { describe, expect, it } from "vitest";
import { importCycles, importGraph, importPath } from "./test-support/import-graph.js";

// The server's layers and the arrows allowed between them (docs/architecture.md "Layers and the arrows between
// them"), held over every module of src/ but tests and test support: static, type-only, re-exported and dynamic
// imports alike.

const isTestSupport = (file: string) => file.startsWith("test-support/") || file.includes("/test-support/");
const graph = importGraph(import.meta.dirname, isTestSupport);
const top = (file: string) => file.split("/")[0]!;

/** Arrows the rules forbid that are still there, each with the change that removes it. Only ever shrinks. */
const KNOWN: readonly { readonly from: string; readonly to: string }[] = [
  // The accounting layer (rate policy, counting, charging, settling) moves out of http/ into one module below the
  // pipeline; http/ keeps only the headers.
  { from: "operations/invoke.ts", to: "http/rate-limit.ts" },
  { from: "operations/invoke.ts", to: "http/client-address.ts" },
  { from: "operations/settle.ts", to: "http/rate-limit.ts" },
  { from: "operations/settle-writes.ts", to: "http/rate-limit.ts" },
  { from: "operations/settle-group-postgres.ts", to: "http/rate-limit.ts" },
  { from: "operations/settlement-wire.ts", to: "http/rate-limit.ts" },
  { from: "operations/operation.ts", to: "http/state.ts" },
];
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
      (c) => c.join(" ") !== "openapi/document.ts routes/catalogue.ts routes/public/discovery.ts",
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

  it("portal/ never imports cli/: the portal is a transport of the running server", () => {
    expect(
      arrows(
        (f) => top(f) === "portal",
        (t) => top(t) === "cli",
      ),
    ).toEqual([]);
    expect(importPath(graph, "app.ts", "cli/context.ts")).toBeNull();
  });

  it("lists only known arrows that are still there", () => {
    expect(KNOWN.filter((k) => !graph.get(k.from)?.includes(k.to))).toEqual([]);
  });
});
