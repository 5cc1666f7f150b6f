#!/usr/bin/env node
// `npm test` and `npm run test:e2e`: runs one test tier of every workspace through turbo, then totals the JSON reports
// each vitest run wrote (README "Tests"). The fast tier is each workspace's `test` script, the e2e tier its
// `test:e2e` script. Fails when turbo fails, when a workspace with the tier's script left no report or ran no test, or
// when zero tests ran in all.
//
//   node scripts/run-tests.mjs [--tier fast|e2e] [turbo options…]
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

const args = process.argv.slice(2);
let tier = "fast";
const tierAt = args.indexOf("--tier");
if (tierAt >= 0) {
  tier = args[tierAt + 1];
  args.splice(tierAt, 2);
}
const TASKS = { fast: "test", e2e: "test:e2e" };
const task = TASKS[tier];
if (!task) {
  console.error(`Unknown test tier "${tier}": one of ${Object.keys(TASKS).join(", ")}.`);
  process.exit(2);
}

/** Workspaces that have the tier's script, in the order of the root's workspace patterns. */
function workspaces() {
  const out = [];
  for (const pattern of rootPkg.workspaces) {
    const base = join(root, pattern.replace(/\/\*$/, ""));
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const dir = join(base, name);
      const pkgPath = join(dir, "package.json");
      if (!existsSync(pkgPath)) continue;
      const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
      if (pkg.scripts?.[task]) out.push({ name: pkg.name, dir });
    }
  }
  return out;
}

const list = workspaces();
const reportOf = (ws) => join(ws.dir, ".test-results", `vitest-${tier}.json`);
const conformanceOf = (ws) => join(ws.dir, ".test-results", "conformance.txt");
for (const ws of list) for (const file of [reportOf(ws), conformanceOf(ws)]) rmSync(file, { force: true });

const started = performance.now();
// One workspace at a time (--concurrency=1): each vitest run already uses the machine's cores, and three runs at
// once on two cores made every timing-sensitive test slower without finishing sooner.
const turbo = spawnSync(
  "npx",
  ["--no-install", "turbo", "run", task, "--continue", "--concurrency=1", "--output-logs=full", ...args],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1", DO_NOT_TRACK: "1" },
  },
);
const seconds = Math.round((performance.now() - started) / 1000);

let total = 0;
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
const missing = [];
const empty = [];
// Files that failed without a failing test: an error while loading or collecting them, or in a hook.
const brokenFiles = [];
for (const ws of list) {
  const report = reportOf(ws);
  if (!existsSync(report)) {
    missing.push(ws.name);
    continue;
  }
  const r = JSON.parse(readFileSync(report, "utf8"));
  if (r.numTotalTests === 0) empty.push(ws.name);
  for (const file of r.testResults ?? [])
    if (file.status === "failed" && !(file.assertionResults ?? []).some((a) => a.status === "failed"))
      brokenFiles.push(file.name.slice(root.length + 1));
  total += r.numTotalTests;
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  lines.push(
    `  ${ws.name.padEnd(22)} ${String(r.numPassedTests).padStart(5)} passed ${String(r.numFailedTests).padStart(4)} failed ${String(r.numPendingTests).padStart(4)} skipped  (${r.numTotalTestSuites} suites)`,
  );
}

console.log(`\nTest summary (${tier} tier, ${seconds} s)`);
for (const l of lines) console.log(l);
console.log(
  `  ${"total".padEnd(22)} ${String(passed).padStart(5)} passed ${String(failed).padStart(4)} failed ${String(skipped).padStart(4)} skipped  of ${total} tests`,
);

// Conformance suites (RFC and browser test tables) record their pass counts beside the vitest report.
const conformance = list.flatMap((ws) => {
  const file = conformanceOf(ws);
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
});
if (conformance.length > 0) {
  console.log("\nConformance suites");
  for (const l of conformance) console.log(`  ${l.replace(/^\[conformance\] /, "")}`);
}

let code = turbo.status ?? 1;
if (missing.length > 0) {
  console.error(`No ${tier}-tier test report from: ${missing.join(", ")} (did its tests run?)`);
  code ||= 1;
}
if (empty.length > 0) {
  console.error(`The ${tier} tier ran no test in: ${empty.join(", ")}: failing.`);
  code ||= 1;
}
if (brokenFiles.length > 0) {
  console.error(
    `Test files that failed outside any test (loading, collecting, a hook):\n  ${brokenFiles.join("\n  ")}`,
  );
  code ||= 1;
}
if (total === 0) {
  console.error("Zero tests ran: failing.");
  code ||= 1;
}
if (failed > 0) code ||= 1;
process.exit(code);
