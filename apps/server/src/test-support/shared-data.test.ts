import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR, sharedDataFile, sharedDataPath } from "./shared-data.js";

describe("shared reference data", () => {
  const dir = mkdtempSync(join(tmpdir(), "hcs-shared-data-"));
  mkdirSync(join(dir, "conformance"));
  writeFileSync(join(dir, "conformance", "present.yml"), "tests: {}\n");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("resolves ../shared/data next to the repository root", () => {
    expect(SHARED_DATA_DIR.replace(/\\/g, "/")).toMatch(/\/shared\/data\/?$/);
    expect(sharedDataPath("cisa-kev/x.json", "/d")).toBe(join("/d", "cisa-kev", "x.json"));
  });

  it("runs when the file is present", () => {
    expect(sharedDataFile("conformance/present.yml", "suite", { dir, required: false })).toBe(
      join(dir, "conformance", "present.yml"),
    );
  });

  it("skips with a printed reason when the file is absent", () => {
    const printed: string[] = [];
    const path = sharedDataFile("conformance/absent.yml", "Absent suite", {
      dir,
      required: false,
      warn: (m) => printed.push(m),
    });
    expect(path).toBeNull();
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^\[skip\] Absent suite tests skipped: .*HCS_TEST_SHARED_DATA=required/);
  });

  it("fails instead when HCS_TEST_SHARED_DATA=required", () => {
    expect(() => sharedDataFile("conformance/absent.yml", "Absent suite", { dir, required: true })).toThrow(
      /HCS_TEST_SHARED_DATA=required but the Absent suite is not at/,
    );
  });
});
