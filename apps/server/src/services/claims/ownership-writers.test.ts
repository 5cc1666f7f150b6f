import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isTestSupport, sourceModules } from "../../test-support/import-graph.js";

// A practice changes owner only through moveOwnership (ownership.ts), which ends the other accounts' enrolments in
// the same transaction (docs/onboarding.md#a-change-of-owner). A new `updateTable("practices")` that sets
// `account_id` elsewhere would move a practice and leave a former owner's scanners uploading into its grade.
// Held over every module of src/ but tests and test support.

const SRC = join(import.meta.dirname, "..", "..");
const OWNER_WRITE = /updateTable\(\s*["']practices["']\s*\)(?:(?!;)[\s\S]){0,400}?\baccount_id\b/;

describe("who changes a practice's owner", () => {
  const files = sourceModules(SRC, isTestSupport);
  const writers = files.filter((f) => OWNER_WRITE.test(readFileSync(join(SRC, f), "utf8")));

  it("reads the server's modules, and sees the one writer", () => {
    expect(files.length).toBeGreaterThan(400);
    expect(writers).toContain("services/claims/ownership.ts");
  });

  it("only moveOwnership sets practices.account_id", () => {
    expect(writers).toEqual(["services/claims/ownership.ts"]);
  });
});
