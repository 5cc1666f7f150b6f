import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CONFORMANCE_DOC_END,
  CONFORMANCE_DOC_START,
  renderConformanceSources,
} from "./test-support/conformance-suites.js";

describe("CHECKS.md conformance section", () => {
  it("names every conformance source and every excluded case with its reason", () => {
    const md = readFileSync(new URL("./CHECKS.md", import.meta.url), "utf8");
    const start = md.indexOf(CONFORMANCE_DOC_START);
    const end = md.indexOf(CONFORMANCE_DOC_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(md.slice(start, end + CONFORMANCE_DOC_END.length)).toBe(renderConformanceSources());
  });
});
