import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as source from "./index.js";

const ROOT = join(import.meta.dirname, "..");

describe("the built package", () => {
  it("exists (turbo builds it before tests; run `npm run build` when calling vitest directly)", () => {
    expect(existsSync(join(ROOT, "dist", "index.js"))).toBe(true);
    expect(existsSync(join(ROOT, "dist", "index.d.ts"))).toBe(true);
  });

  it("imports from plain Node by its package name and exports the same names as the source", () => {
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "const m = await import('@hcs/protocol'); console.log(JSON.stringify(Object.keys(m).sort()))",
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(JSON.parse(out)).toEqual(Object.keys(source).sort());
  });

  it("validates NPIs and grades from the built code", () => {
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "const p = await import('@hcs/protocol'); console.log(JSON.stringify([p.isValidNpi('1234567893'), p.isValidNpi('1234567890'), p.gradeForScore(89), p.gradeForScore(90)]))",
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(JSON.parse(out)).toEqual([true, false, "B", "A"]);
  });

  it("ships no test files", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.files).toContain("!dist/**/*.test.*");
    expect(existsSync(join(ROOT, "dist", "npi.test.js"))).toBe(false);
  });
});
