import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The fast tier (`npm test`) stays fast only if nothing that needs another process or a long run creeps into it
// (README "Tests"): such a test is named *.e2e.test.ts and runs in `npm run test:e2e`. This holds every workspace's
// fast-tier files to it by what they import.

const repo = join(import.meta.dirname, "..", "..", "..");

/** What only e2e-tier files may import, and why. */
const E2E_ONLY: readonly { readonly pattern: RegExp; readonly why: string }[] = [
  { pattern: /test-support\/server-process(\.js)?["']/, why: "starts hcs-server processes" },
  { pattern: /test-support\/hcs-server-cli(\.js)?["']/, why: "runs the hcs-server CLI as a process" },
  { pattern: /test-support\/hcs-server(\.js)?["']/, why: "starts an hcs-server process for the scanner" },
  { pattern: /test-support\/run-scanner(\.js)?["']/, why: "runs the hcs-scanner CLI as a process" },
  { pattern: /test-support\/browser(\.js)?["']/, why: "drives Chromium" },
  { pattern: /["']playwright-core["']/, why: "drives Chromium" },
  { pattern: /test-support\/anvil(\.js)?["']/, why: "starts an EVM node" },
  { pattern: /["']solc["']/, why: "compiles Solidity" },
  { pattern: /test-support\/healthz-prober(\.js)?["']/, why: "a load run" },
];

function testFiles(): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.test.ts"], {
    cwd: repo,
    encoding: "utf8",
  })
    .split("\n")
    .filter((f) => f.endsWith(".test.ts") && !f.includes("node_modules/"));
}

describe("test tiers", () => {
  const files = testFiles();

  it("finds the test files of every workspace, in both tiers", () => {
    expect(files.filter((f) => f.startsWith("apps/server/")).length).toBeGreaterThan(100);
    expect(files.filter((f) => f.startsWith("apps/scanner-cli/")).length).toBeGreaterThan(50);
    expect(files.filter((f) => f.startsWith("packages/protocol/")).length).toBeGreaterThan(5);
    expect(files.filter((f) => f.endsWith(".e2e.test.ts")).length).toBeGreaterThan(10);
  });

  it("keeps processes, browsers, chain nodes, compilers and load runs out of the fast tier", () => {
    const offending: string[] = [];
    for (const file of files.filter((f) => !f.endsWith(".e2e.test.ts"))) {
      const text = readFileSync(join(repo, file), "utf8");
      for (const rule of E2E_ONLY)
        if (rule.pattern.test(text)) offending.push(`${file}: ${rule.why} — name it *.e2e.test.ts`);
    }
    expect(offending).toEqual([]);
  });
});
