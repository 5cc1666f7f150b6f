import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HELPER_BUNDLE_NAME, helperArgs } from "./launch.js";

describe("probe helper launch", () => {
  it("from the sources, runs main.ts through tsx's loader", () => {
    const args = helperArgs();
    expect(args[0]).toBe("--import");
    expect(args[1]).toMatch(/^file:.*\/tsx\/dist\/loader\.mjs$/);
    expect(existsSync(new URL(args[1]!))).toBe(true);
    expect(args[2]).toMatch(/probe-helper\/main\.ts$/);
    expect(existsSync(args[2]!)).toBe(true);
  });

  it("from a bundle, runs the helper bundle beside it; a given entry wins", () => {
    expect(helperArgs(undefined, "file:///opt/lib/node_modules/@hcs/scanner-cli/dist/bin.js")).toEqual([
      `/opt/lib/node_modules/@hcs/scanner-cli/dist/${HELPER_BUNDLE_NAME}`,
    ]);
    expect(helperArgs("/tmp/helper.js")).toEqual(["/tmp/helper.js"]);
  });
});
