#!/usr/bin/env node
// `npm test`: runs every workspace's tests through turbo, then totals the JSON reports each vitest run wrote.
// Fails when turbo fails, when a workspace with a test script left no report, or when zero tests ran.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

function workspaces() {
  const out = [];
  for (const pattern of rootPkg.workspaces) {
    const base = join(root, pattern.replace(/\/\*$/, ""));
    if (!existsSync(base)) continue;
    for (const name of spawnSync("ls", [base], { encoding: "utf8" }).stdout.split("\n").filter(Boolean)) {
      const dir = join(base, name);
      const pkgPath = join(dir, "package.json");
      if (!existsSync(pkgPath)) continue;
      const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
      if (pkg.scripts?.test) out.push({ name: pkg.name, dir });
    }
  }
  return out;
}

const list = workspaces();
for (const ws of list) rmSync(join(ws.dir, ".test-results"), { recursive: true, force: true });

const extra = process.argv.slice(2);
const turbo = spawnSync("npx", ["--no-install", "turbo", "run", "test", "--continue", "--output-logs=full", ...extra], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1", DO_NOT_TRACK: "1" },
});

let total = 0;
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
const missing = [];
for (const ws of list) {
  const report = join(ws.dir, ".test-results", "vitest.json");
  if (!existsSync(report)) {
    missing.push(ws.name);
    continue;
  }
  const r = JSON.parse(readFileSync(report, "utf8"));
  total += r.numTotalTests;
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  lines.push(
    `  ${ws.name.padEnd(22)} ${String(r.numPassedTests).padStart(5)} passed ${String(r.numFailedTests).padStart(4)} failed ${String(r.numPendingTests).padStart(4)} skipped  (${r.numTotalTestSuites} suites)`,
  );
}

console.log("\nTest summary");
for (const l of lines) console.log(l);
console.log(
  `  ${"total".padEnd(22)} ${String(passed).padStart(5)} passed ${String(failed).padStart(4)} failed ${String(skipped).padStart(4)} skipped  of ${total} tests`,
);

// Conformance suites (RFC and browser test tables) record their pass counts beside the vitest report.
const conformance = list.flatMap((ws) => {
  const file = join(ws.dir, ".test-results", "conformance.txt");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
});
if (conformance.length > 0) {
  console.log("\nConformance suites");
  for (const l of conformance) console.log(`  ${l.replace(/^\[conformance\] /, "")}`);
}

let code = turbo.status ?? 1;
if (missing.length > 0) {
  console.error(`No test report from: ${missing.join(", ")} (did its tests run?)`);
  code ||= 1;
}
if (total === 0) {
  console.error("Zero tests ran: failing.");
  code ||= 1;
}
if (failed > 0) code ||= 1;
process.exit(code);
