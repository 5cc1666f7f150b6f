import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScanner } from "../test-support/run-scanner.js";

// The same scan of this machine as root and as an unprivileged account (nobody, through runuser): what the
// unprivileged run could not read is listed as not assessed with its reason, and its grade is never the better one.
// Needs root, runuser (util-linux) and a Node that nobody may execute (a Node unpacked under a 0700 directory is
// not), as CI's machine has; skipped elsewhere.

const PHASES = "ports,access_control,patches,backups";
const BIN = join(import.meta.dirname, "..", "bin.ts");

const canSwitchUser = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync("runuser", ["-u", "nobody", "--", process.execPath, "--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const dir = mkdtempSync(join(tmpdir(), "hcs-scanner-unprivileged-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface JsonReport {
  findings: { check_id: string; severity: string; evidence: Record<string, unknown> }[];
  not_assessed: { phase: string; check?: string; reason: string; counted_as?: string }[];
  local_grade: { grade: string; score: number };
}

async function scanAs(user: "root" | "nobody"): Promise<JsonReport> {
  const home = join(dir, user);
  execFileSync("mkdir", ["-p", home]);
  if (user === "nobody") chownSync(home, Number(execFileSync("id", ["-u", "nobody"]).toString()), 0);
  const args = ["scan", "--no-upload", "--phases", PHASES, "--json", "--config-dir", join(home, "config")];
  const r = await runScanner(args, {
    env: { HOME: home },
    ...(user === "nobody"
      ? { bin: ["runuser", "-u", "nobody", "--", "env", `HOME=${home}`, process.execPath, "--import", "tsx", BIN] }
      : {}),
  });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as JsonReport;
}

describe.skipIf(!canSwitchUser)(`a scan without root (as nobody; this test runs as ${userInfo().username})`, () => {
  it("lists what it could not read as not assessed, counts each privilege gap, and never grades better than root", async () => {
    const root = await scanAs("root");
    const nobody = await scanAs("nobody");
    const gaps = nobody.findings.filter((f) => f.check_id.endsWith(".not_assessed"));
    // Each counted gap is also listed, with its reason and what it counts as.
    for (const g of gaps)
      expect(nobody.not_assessed).toContainEqual(
        expect.objectContaining({
          phase: g.check_id.split(".")[0],
          check: g.evidence.not_assessed,
          reason: expect.any(String),
          counted_as: expect.any(String),
        }),
      );
    expect(root.findings.filter((f) => f.check_id.endsWith(".not_assessed"))).toEqual([]);
    expect(nobody.local_grade.score).toBeLessThanOrEqual(root.local_grade.score);
  }, 120_000);
});
