#!/usr/bin/env node
// `npm run bench [-- <name> …]`: runs bench/<name>/run.ts (with tsx) for each name given, or lists them.
// Every benchmark measures its own baseline in the same run and prints the ratio
// (docs/performance.md#running-a-benchmark).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const benchDir = join(root, "bench");
const available = existsSync(benchDir)
  ? readdirSync(benchDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(benchDir, d.name, "run.ts")))
      .map((d) => d.name)
      .sort()
  : [];

const names = process.argv.slice(2);
if (names.length === 0) {
  console.log("usage: npm run bench -- <name> [<name> …]\n\nbenchmarks:");
  for (const n of available) console.log(`  ${n}`);
  if (available.length === 0) console.log("  (none yet)");
  process.exit(available.length === 0 ? 1 : 0);
}

// Unknown names fail here, before the build.
const unknown = names.filter((n) => !available.includes(n));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark ${unknown.map((n) => `"${n}"`).join(", ")}; available: ${available.join(", ") || "none"}`,
  );
  process.exit(2);
}

// Every workspace is built first, though not every benchmark measures built code. What each one runs:
//  - grade-lookup: the built server (apps/server/dist/bin.js) under plain node, as deployments run it; its
//    baseline, a bare Koa handler (bench/grade-lookup/bare-server.ts), under tsx;
//  - scanner-full: the packaged scanner bundle (apps/scanner-cli/dist/bin.js) under plain node, as clinics run it;
//  - external-scan: the server's TypeScript sources under tsx, in the bench's own process (startLab: server, worker
//    and sample practices), with @hcs/protocol from its build;
//  - intel: the server's TypeScript sources under tsx, in the bench's own process, on an embedded SQLite store;
//  - nppes-import: the server's TypeScript sources under tsx, in the bench's own process (SQLite, then PostgreSQL);
//  - host-audit: the packaged scanner bundle under plain node beside Lynis (the Debian package; skipped when absent);
//    the agreement table is computed by the scanner's TypeScript sources (src/peers/lynis) under tsx;
//  - port-scan: the scanner's TypeScript sources under tsx in the bench's own process (with @hcs/protocol from its
//    build) and, for the fresh-process rows, the same sources (@hcs/protocol's included) bundled by esbuild and run
//    under plain node.
//  - report: the server's report builder and renderers (TypeScript sources under tsx) in the bench's own process,
//    on the captured report sources of a sample practice's full scan.
//  - soak: the built server (apps/server/dist/bin.js) under plain node, 3 `serve` + 2 `worker` processes on one
//    PostgreSQL behind a TCP proxy; the traffic, faults and checks in the bench's own process (sources under tsx).
const build = spawnSync("npx", ["--no-install", "turbo", "run", "build", "--output-logs=errors-only"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
});
if (build.status !== 0) process.exit(build.status ?? 1);

for (const name of names) {
  console.log(`\n=== bench/${name} ===`);
  const r = spawnSync("npx", ["--no-install", "tsx", join(benchDir, name, "run.ts")], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
