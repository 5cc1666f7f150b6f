// `npm run demo`: the whole HCS loop on this machine, loopback only, no setup. Starts the sample practices (their
// own DNS zones and HTTPS sites on 127.0.10.x), a webhook receiver and a real server on a temporary SQLite data
// dir; dispatches a full external scan of every practice through the HTTPS API; enrols one practice's scanner
// and runs `hcs-scanner one-shot` (the packaged bundle) against loopback; uploads the scanner's persona scans for
// the other practices and records their restore tests (requirements 6 and 13); prints the unified grades.
//
// Run through tsx with the server's tsconfig (package.json): the portal's pages are JSX for preact, which the root
// tsconfig (no JSX settings) would compile as React.createElement, and every portal page would answer 500.
// The server's log (JSON lines, pino) goes to server.log in the demo's data directory, which is all the demo leaves
// behind. `--keep-running` keeps the server up for the portal until Enter, end of input or a signal, on a terminal
// or not; on a terminal it does so anyway.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Job, JobSchema } from "@hcs/protocol";
import pino from "pino";
import { httpRequestTo } from "../apps/server/src/lab/https-client.js";
import { startLab } from "../apps/server/src/lab/lab.js";
import { createLogger } from "../apps/server/src/logger.js";
import { invitationLink, inviteUser } from "../apps/server/src/portal/users.js";
import { runIntelDemo } from "./demo-intel.js";
import { practiceManagerPass } from "./demo-practice-manager.js";
import { readinessPass } from "./demo-readiness.js";

const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const scannerBin = join(root, "apps", "scanner-cli", "dist", "bin.js");
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const say = (line: string) => console.log(`[${elapsed().padStart(6)}] ${line}`);

const KNOWN_OPTIONS = ["--keep-running"];
const unknown = process.argv.slice(2).filter((a) => !KNOWN_OPTIONS.includes(a));
if (unknown.length > 0) {
  console.error(`unknown option ${unknown.join(" ")}; the demo takes ${KNOWN_OPTIONS.join(", ")}`);
  process.exit(2);
}
const keepRunning = process.argv.includes("--keep-running") || (process.stdin.isTTY && process.stdout.isTTY);

if (!existsSync(scannerBin)) {
  console.error("The scanner bundle is missing: run `npm run demo` (it builds first) or `npm run build`.");
  process.exit(1);
}

// The server's data directory: SQLite, TLS material, keys and the server's log. Only the log outlives the demo.
const dataDir = mkdtempSync(join(tmpdir(), "hcs-demo-data-"));
const logFile = join(dataDir, "server.log");
const logDestination = pino.destination({ dest: logFile, mode: 0o600, sync: true });
say("starting the sample practices (DNS + HTTPS on 127.0.10.x), a webhook receiver and the HCS server…");
say(`the server logs to ${logFile}`);
const lab = await startLab({ dataDir, logger: createLogger("info", logDestination) });
const work = mkdtempSync(join(tmpdir(), "hcs-demo-"));
let exitCode = 0;
let signalled = false;

/** Stops the lab and removes everything the demo made except the server's log; says where that log is. */
let finished: Promise<void> | null = null;
function finish(): Promise<void> {
  finished ??= (async () => {
    await lab.stop();
    logDestination.flushSync();
    rmSync(work, { recursive: true, force: true });
    for (const entry of readdirSync(dataDir))
      if (entry !== "server.log") rmSync(join(dataDir, entry), { recursive: true, force: true });
    const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean).length;
    say(`the server's log (${lines} JSON lines) is kept at ${logFile}`);
    say(
      exitCode === 0
        ? "done; everything else was cleaned up."
        : "stopped with an error; everything else was cleaned up.",
    );
  })();
  return finished;
}
// Ctrl-C or a TERM while the demo runs or waits still cleans up (and keeps the log).
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    signalled = true;
    exitCode = 130;
    void finish().then(() => process.exit(exitCode));
  });

try {
  const { server, samples, receiver } = lab;
  say(`server listening on ${server.url} (SQLite in ${lab.dataDir}); ${samples.practices.length} sample practices`);

  // 1. External scans, dispatched through the agent API with a webhook.
  const jobs = new Map<string, string>();
  for (const p of samples.practices) {
    const res = await lab.request("/v1/a2a/scans/dispatch", {
      npi: p.npi,
      scan_type: "full",
      callback_url: receiver.url,
    });
    if (res.status !== 202) throw new Error(`dispatch for ${p.name} answered ${res.status}: ${res.text}`);
    jobs.set(p.npi, res.json.poll_url);
    say(
      `dispatched a full scan of ${p.name} (${p.domain}) → job ${res.json.job_id}, estimated ${res.json.estimated_duration_ms} ms`,
    );
  }
  const done = new Map<string, Job>();
  while (done.size < jobs.size) {
    for (const [npi, poll] of jobs) {
      if (done.has(npi)) continue;
      const job = JobSchema.parse((await lab.request(poll)).json);
      if (job.status === "completed" || job.status === "failed") {
        done.set(npi, job);
        const name = samples.practices.find((p) => p.npi === npi)!.name;
        say(
          `${name}: job ${job.status}${job.result ? ` — external grade ${job.result.grade} (${job.result.compliance_score}/100)` : ` (${job.error?.code})`}`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  // 2. The internal scanner of one practice: deploy token → hcs-scanner one-shot (loopback targets only).
  const clinic = samples.practices[1]!;
  const deploy = await lab.request(`/v1/a2a/network/deploy/${clinic.npi}`, {});
  if (deploy.status !== 201) throw new Error(`deploy token: ${deploy.status} ${deploy.text}`);
  say(
    `deploy token issued for ${clinic.name}; running hcs-scanner one-shot on this machine (targets: 127.0.0.1 only)…`,
  );
  const tokenFile = join(work, "token.txt");
  writeFileSync(tokenFile, deploy.json.deploy_token, { mode: 0o600 });
  const scanner = await run(
    process.execPath,
    [
      scannerBin,
      "one-shot",
      "--key-file",
      tokenFile,
      "--targets",
      "127.0.0.1",
      "--json",
      "--config-dir",
      join(work, "scanner"),
    ],
    {
      env: { ...process.env, NO_COLOR: "1" },
      timeout: 120_000,
    },
  ).catch((err: { stdout?: string; stderr?: string; code?: number }) => err);
  const oneShot = JSON.parse(scanner.stdout ?? "{}");
  if (!oneShot.grade) throw new Error(`hcs-scanner one-shot did not upload: ${scanner.stderr ?? ""}`);
  const phases = oneShot.phases as { status: string }[];
  say(
    `hcs-scanner: ${phases.filter((p) => p.status === "ok").length}/12 phases ok, ${oneShot.findings.length} findings, uploaded signed`,
  );

  // 2b. The other practices' internal halves: the scanner's persona scans uploaded signed, restore tests recorded;
  // requirements 6 (backup and 72-hour restore readiness) and 13 (audit trail) per practice.
  say("internal halves of the other sample practices: scanner persona scans and restore tests…");
  if (!(await readinessPass(lab, say))) exitCode = 1;

  // 3. Unified grades, as any agent would look them up.
  console.log("");
  console.log(
    `${"NPI".padEnd(11)} ${"practice".padEnd(30)} ${"score".padStart(5)}  grade  coverage             top findings`,
  );
  for (const p of samples.practices) {
    const g = (await lab.request(`/v1/a2a/grade/${p.npi}`)).json;
    const job = done.get(p.npi)!;
    const coverage = ["external", "internal", "administrative"]
      .filter((s) => g.coverage[s].status !== "none")
      .join("+");
    const top = (job.result?.report.top_findings ?? []).slice(0, 3).map((f) => f.title);
    const internalTop =
      p.npi === clinic.npi
        ? (oneShot.findings as { severity: string; title: string }[])
            .filter((f) => f.severity === "critical" || f.severity === "high")
            .slice(0, 2)
            .map((f) => `[internal] ${f.title}`)
        : [];
    const lines = [...top, ...internalTop];
    console.log(
      `${p.npi.padEnd(11)} ${p.name.slice(0, 30).padEnd(30)} ${String(g.compliance_score).padStart(5)}  ${g.grade.padEnd(5)}  ${coverage.padEnd(20)} ${lines[0] ?? "-"}`,
    );
    for (const l of lines.slice(1))
      console.log(`${"".padEnd(11)} ${"".padEnd(30)} ${"".padStart(5)}  ${"".padEnd(5)}  ${"".padEnd(20)} ${l}`);
  }
  console.log("");
  const unified = (await lab.request(`/v1/a2a/grade/${clinic.npi}`)).json;
  say(
    `${clinic.name}: unified grade ${unified.grade} (${unified.compliance_score}/100) from external (${unified.coverage.external.categories_with_data.join(", ")}) and internal (${unified.coverage.internal.categories_with_data.join(", ")}) data${unified.caps_applied.length ? `; caps: ${unified.caps_applied.map((c: { id: string }) => c.id).join(", ")}` : ""}`,
  );

  await runIntelDemo(lab, work, say);
  await practiceManagerPass(lab, clinic.npi, say);

  const deadline = Date.now() + 10_000;
  while (receiver.received.length < jobs.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const verified = receiver.received.filter((d) => d.verified).length;
  say(
    `webhooks: ${receiver.received.length} deliveries landed at ${receiver.url}, ${verified} with a valid X-HCS-Signature`,
  );
  if (verified !== jobs.size) exitCode = 1;

  // 4. The customer portal on the same listener: a one-time invitation for the demo account's owner.
  const invitation = await inviteUser(lab.server.deps, {
    accountId: lab.accountId,
    email: "owner@demo-health.example",
    role: "owner",
    invitedBy: null,
  });
  const link = invitationLink(lab.server.url, invitation.token);
  // The link is checked before it is printed: a page the portal cannot render answers 500 (the JSX note above).
  const invitePage = await httpRequestTo(link, { ca: lab.server.tls.caPem });
  if (invitePage.status !== 200) throw new Error(`the portal's invitation page answered ${invitePage.status}`);
  say(`customer portal: ${lab.server.url}/portal (the practice of step 2 is ${clinic.name})`);
  say(`  sign in as owner@demo-health.example: open ${link}`);
  say("  set a password, then scan the QR code with an authenticator app (TOTP is required for owners)");
  say(`  the browser must trust ${join(lab.dataDir, "tls", "ca.crt")} (or accept the warning: a loopback demo)`);
  if (!keepRunning) say("  the server stops now: `npm run demo -- --keep-running` keeps it up for the portal");
  if (keepRunning) {
    say("the server stays up for the portal: press Enter to stop the demo");
    await new Promise<void>((resolve) => {
      process.stdin.once("data", () => resolve());
      process.stdin.once("end", () => resolve());
    });
    process.stdin.pause();
  }
} catch (err) {
  // A signal stops the lab under the running steps: their errors are its consequence, not news.
  if (!signalled) {
    console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
    exitCode = 1;
  }
} finally {
  await finish();
}
process.exit(exitCode);
