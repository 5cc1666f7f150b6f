// bench/host-audit: Lynis (the Debian package) and the packaged scanner audit this machine in the same run. Prints
// the agreement table for the documented mapping of Lynis test ids to scanner checks (agree / scanner misses /
// scanner extra / disagree), whether any finding claims network exposure of a loopback-only listener, and both run
// times with their ratio. Goals (docs/scanner.md#measured-against-lynis-benchhost-audit): ≥ 90 % of Lynis's
// HIPAA-relevant items matched, no such claim, scan time ≤ 0.2× Lynis's. The scanner gets loopback targets only
// (--targets 127.0.0.1); Lynis audits locally.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { compareWithLynis, type ScanPhaseView } from "../../apps/scanner-cli/src/peers/lynis/agreement.js";
import { loopbackExposureClaims, parseSsListeners } from "../../apps/scanner-cli/src/peers/lynis/exposure-claims.js";
import { formatAgreement } from "../../apps/scanner-cli/src/peers/lynis/format.js";
import mappingJson from "../../apps/scanner-cli/src/peers/lynis/lynis-hipaa-map.json" with { type: "json" };
import { parseLynisMapping } from "../../apps/scanner-cli/src/peers/lynis/mapping.js";
import { parseLynisReport } from "../../apps/scanner-cli/src/peers/lynis/report.js";
import { scannerCheckIds } from "../../apps/scanner-cli/src/peers/lynis/scanner-checks.js";
import { median } from "../lib/stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const bin = join(import.meta.dirname, "..", "..", "apps", "scanner-cli", "dist", "bin.js");
if (!existsSync(bin)) throw new Error("build the scanner first (npm run bench builds everything)");

const lynisVersion = spawnSync("lynis", ["--version"], { encoding: "utf8" });
if (lynisVersion.error || lynisVersion.status !== 0) {
  console.log("skipped: Lynis is not installed (apt-get install -y lynis); nothing to compare against");
  process.exit(0);
}
if (process.getuid?.() !== 0) {
  console.log("note: not running as root: Lynis skips its root-only tests and the scanner cannot read the rule set");
}

/** Runs a command to completion and times it (wall clock). */
function timed(
  cmd: string,
  args: string[],
): Promise<{ ms: number; code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ ms: performance.now() - t0, code, stdout, stderr }));
  });
}

interface ScanDoc {
  phases: {
    id: string;
    status: string;
    facts: { not_assessed?: Record<string, unknown> };
    findings: { id: string; check_id: string; severity: string; title: string; evidence?: Record<string, unknown> }[];
  }[];
}

const dir = mkdtempSync(join(tmpdir(), "hcs-bench-host-audit-"));
try {
  const scanMs: number[] = [];
  const lynisMs: number[] = [];
  let doc: ScanDoc | null = null;
  let reportText = "";
  const scan = async (i: number) => {
    const out = join(dir, `scan-${i}.json`);
    const r = await timed(process.execPath, [
      bin,
      "scan",
      "--no-upload",
      "--json",
      "--targets",
      "127.0.0.1",
      "--config-dir",
      join(dir, "config"),
      "--out",
      out,
    ]);
    if (r.code !== 0) throw new Error(`scan exited ${r.code}: ${r.stderr.slice(0, 500)}`);
    scanMs.push(r.ms);
    doc = JSON.parse(readFileSync(out, "utf8")) as ScanDoc;
  };
  // Each round: the scanner, Lynis, the scanner again, so both see the same load on this shared machine.
  for (let i = 0; i < ROUNDS; i++) {
    await scan(2 * i);
    const report = join(dir, `lynis-${i}.dat`);
    const r = await timed("lynis", [
      "audit",
      "system",
      "--quick",
      "--no-colors",
      "--report-file",
      report,
      "--logfile",
      join(dir, `lynis-${i}.log`),
    ]);
    if (r.code !== 0 || !existsSync(report)) throw new Error(`lynis exited ${r.code}: ${r.stderr.slice(0, 500)}`);
    lynisMs.push(r.ms);
    reportText = readFileSync(report, "utf8");
    await scan(2 * i + 1);
  }

  const scanDoc = doc as ScanDoc | null;
  if (!scanDoc) throw new Error("no scan document");
  const report = parseLynisReport(reportText);
  const phases: ScanPhaseView[] = scanDoc.phases.map((p) => ({
    id: p.id,
    status: p.status,
    findings: p.findings,
    notAssessed: Object.entries(p.facts.not_assessed ?? {})
      .filter(([, v]) => v !== null)
      .map(([k]) => k),
    facts: p.facts,
  }));
  const table = compareWithLynis(report, parseLynisMapping(mappingJson), phases, { knownChecks: scannerCheckIds() });

  const ss = spawnSync("ss", ["-Hltn"], { encoding: "utf8" });
  const claims =
    ss.status === 0
      ? loopbackExposureClaims(
          scanDoc.phases.flatMap((p) => p.findings.map((f) => ({ ...f, evidence: f.evidence ?? {} }))),
          parseSsListeners(ss.stdout),
        )
      : null;

  const scanMedian = median(scanMs);
  const lynisMedian = median(lynisMs);
  const ratio = scanMedian / lynisMedian;
  console.log(
    `\nLynis ${report.version} (${lynisVersion.stdout.trim()}) on ${report.os.name} ${report.os.version}, \`lynis audit system --quick\`; hcs-scanner bundle \`scan --no-upload --targets 127.0.0.1\`; ${ROUNDS} round(s), load ${loadavg()[0]!.toFixed(1)}, Node ${process.version}\n`,
  );
  console.log(formatAgreement(table));
  console.log(
    `\nexposure claims about loopback-only listeners: ${
      claims === null
        ? "not checked (ss -Hltn failed)"
        : claims.length === 0
          ? "none"
          : claims.map((c) => c.id).join(", ")
    } (goal: none)`,
  );
  const ok = scanDoc.phases.filter((p) => p.status === "ok").length;
  console.log(
    `run time: scanner median ${(scanMedian / 1000).toFixed(2)} s (${scanMs.map((m) => (m / 1000).toFixed(2)).join(", ")}; ${ok}/12 phases ok), Lynis median ${(lynisMedian / 1000).toFixed(1)} s (${lynisMs.map((m) => (m / 1000).toFixed(1)).join(", ")}); scanner/Lynis ${ratio.toFixed(3)} (goal ≤ 0.2)`,
  );
  const share = table.matchedShare;
  const all = table.matchedShareAll;
  console.log(
    `goals: matched ${share === null ? "n/a" : `${(share * 100).toFixed(0)} %`} of the items applicable here (${all === null ? "n/a" : `${(all * 100).toFixed(0)} %`} of all) ${share !== null && share >= 0.9 ? "met" : "NOT met"}; loopback exposure claims ${claims?.length === 0 ? "met" : "NOT met"}; time ${ratio <= 0.2 ? "met" : "NOT met"}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
