// bench/port-scan: our TCP connect scan against `nmap -sT -T4 -n -Pn`, same targets, same run, alternating rounds.
// Listeners on a known set of ports spread over 127.0.1.1–127.0.1.254 (loopback only, by construction), held by a
// separate process so that neither scanner pays for accepting; 254 hosts × the top-100 TCP ports.
//
// "hcs" is the ports phase as the scanner runs it: runPhases() with the real host (scope guard, phase timeout and
// AbortSignal included), timed from the phase's start to its result. The real host starts its probe helper process
// at the first busy moment (more probes in flight than one process keeps), so the first round pays the helper's
// start-up and later rounds reuse the running helper, as consecutive scans of a running scanner do; the "new host"
// rows at the end time a fresh host created inside the timing, which starts a helper of its own in every round.
// nmap is timed as a process.
//
// Then the ports phase in a fresh scanner process of its own (bench/port-scan/scan-process.ts bundled to plain
// JavaScript, started with plain node, one scan each, alternating with nmap): the first scan a real run makes, with
// a cold JIT and the helper started during the scan, and the scanner's own peak RSS plus its helper's.
//
// Prints every round, the medians, the ratio, CPU time, peak RSS, and whether both scanners found exactly the
// planted open ports in every round. Run: npx tsx bench/port-scan/run.ts [rounds]
import { spawn, spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Host } from "../../apps/scanner-cli/src/host/host.js";
import type { RealNetProbe } from "../../apps/scanner-cli/src/host/net.js";
import { HELPER_BUNDLE_NAME } from "../../apps/scanner-cli/src/host/probe-helper/launch.js";
import { createRealHost } from "../../apps/scanner-cli/src/host/real-host.js";
import { TOP_100_TCP_PORTS } from "../../apps/scanner-cli/src/phases/ports/common-ports.js";
import { portsPhase } from "../../apps/scanner-cli/src/phases/ports/index.js";
import { openPortsOf } from "../../apps/scanner-cli/src/phases/ports/open-ports.js";
import { runPhases } from "../../apps/scanner-cli/src/runner/run-phases.js";
import { median } from "../lib/stats.js";

const HOSTS = Array.from({ length: 254 }, (_, i) => `127.0.1.${i + 1}`);
const ROUNDS = Math.max(5, Number(process.argv[2] ?? 7));
const COLD_ROUNDS = 3;
const FRESH_PROCESS_ROUNDS = 3;
const root = fileURLToPath(new URL("../../", import.meta.url));

interface FreshRun {
  readonly ms: number[];
  readonly open: string[];
  readonly maxRssBytes: number;
  readonly helperMaxRssBytes: number;
}

/**
 * Bundles scan-process.ts to plain JavaScript (packages stay external; @hcs/protocol from source), with the probe
 * helper's entry beside it, where a bundle's scanner looks for it (as in the package: dist/bin.js and
 * dist/probe-helper.js). The in-process rows run that helper bundle too, so every row times the helper as shipped
 * (from the sources it would start through tsx's loader).
 */
async function bundleScanProcess(): Promise<{ script: string; helper: string }> {
  const outdir = `${root}bench/results/port-scan`;
  await build({
    entryPoints: {
      "scan-process": `${root}bench/port-scan/scan-process.ts`,
      [HELPER_BUNDLE_NAME.replace(/\.js$/, "")]: `${root}apps/scanner-cli/src/host/probe-helper/main.ts`,
    },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    alias: { "@hcs/protocol": `${root}packages/protocol/src/index.ts` },
    outdir,
    logLevel: "warning",
  });
  return { script: `${outdir}/scan-process.js`, helper: `${outdir}/${HELPER_BUNDLE_NAME}` };
}

function runFreshProcess(script: string): FreshRun {
  const r = spawnSync(process.execPath, [script, "1"], { encoding: "utf8", cwd: root });
  if (r.status !== 0) throw new Error(`scanner process failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").at(-1)!) as FreshRun;
}

/** Every 4th host listens on 1–3 of the top-100 ports, risky ones included; a deterministic spread. */
function plannedListeners(): { host: string; port: number }[] {
  const out: { host: string; port: number }[] = [];
  for (let i = 0; i < HOSTS.length; i += 4) {
    const count = 1 + (i % 3);
    for (let k = 0; k < count; k++) out.push({ host: HOSTS[i]!, port: TOP_100_TCP_PORTS[(i * 7 + k * 31) % 100]! });
  }
  return out;
}

/** The listeners' process: binds what it can of the plan (loopback addresses only), prints what it holds. */
const LISTENER_SOURCE = String.raw`
const { createServer } = require("node:net");
const plan = JSON.parse(process.argv[1]);
(async () => {
  const bound = [];
  for (const { host, port } of plan) {
    if (!host.startsWith("127.")) continue;
    const server = createServer((socket) => socket.destroy());
    const ok = await new Promise((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, host, () => resolve(true));
    });
    if (ok) bound.push(host + ":" + port);
  }
  process.stdout.write("READY " + JSON.stringify(bound) + "\n");
})();
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
`;

async function startListeners(): Promise<{ expected: Set<string>; skipped: string[]; stop: () => void }> {
  const plan = plannedListeners();
  const child = spawn(process.execPath, ["-e", LISTENER_SOURCE, JSON.stringify(plan)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const bound = await new Promise<string[]>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /READY (.*)\n/.exec(out);
      if (m) resolve(JSON.parse(m[1]!) as string[]);
    });
    child.once("exit", (code) => reject(new Error(`listeners exited (${code})`)));
  });
  const expected = new Set(bound);
  const skipped = plan.map((p) => `${p.host}:${p.port}`).filter((x) => !expected.has(x));
  return { expected, skipped, stop: () => child.stdin!.end() };
}

/**
 * The nmap on PATH. The bench installs nothing itself (fetching packages would send traffic beyond loopback): when
 * nmap is missing it stops and says how to install it.
 */
function ensureNmap(): string {
  const found = spawnSync("sh", ["-c", "command -v nmap"], { encoding: "utf8" }).stdout.trim();
  if (found) return found;
  console.error(
    "bench/port-scan compares the scanner with nmap, which is not installed on this machine.\n" +
      "Install it (Debian/Ubuntu: `apt-get install nmap`; elsewhere your system's package manager) and run the bench again.",
  );
  process.exit(1);
}

interface OurRound {
  readonly ms: number;
  readonly open: Set<string>;
  /** CPU of this process and of the helper during the round, ms. */
  readonly cpuMs: number;
  readonly helperCpuMs: number;
  readonly helperProbes: number;
  readonly probes: number;
}

async function helperCpuMicros(net: RealNetProbe): Promise<number> {
  const usage = (await net.engine?.helperUsage()) ?? [];
  return usage.reduce((sum, u) => sum + u.cpuMicros, 0);
}

async function runOurs(makeHost: () => Promise<Host>): Promise<OurRound & { host: Host }> {
  const scope = { mode: "targets" as const, hosts: HOSTS, given: ["127.0.1.1-254"] };
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const host = await makeHost();
  const net = host.net as RealNetProbe;
  const helper0 = await helperCpuMicros(net);
  const before = net.engine?.stats();
  const [result] = await runPhases({
    host,
    phases: [portsPhase],
    scope,
    options: { ephiPaths: [], ports: TOP_100_TCP_PORTS },
  });
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const helper1 = await helperCpuMicros(net);
  const after = net.engine?.stats();
  if (result?.status !== "ok") throw new Error(`ports phase: ${result?.status} ${JSON.stringify(result?.error)}`);
  const open = new Set((openPortsOf(result) ?? []).map((o) => `${o.host}:${o.port}`));
  return {
    host,
    ms,
    open,
    cpuMs: (cpu.user + cpu.system) / 1000,
    helperCpuMs: (helper1 - helper0) / 1000,
    helperProbes: (after?.helperProbes ?? 0) - (before?.helperProbes ?? 0),
    probes: Number(result.facts.probes),
  };
}

function runNmap(
  nmap: string,
  ports = TOP_100_TCP_PORTS.join(","),
  targets = "127.0.1.1-254",
): { ms: number; open: Set<string> } {
  const args = ["-sT", "-T4", "-n", "-Pn", "-p", ports, "-oG", "-", targets];
  const started = performance.now();
  const r = spawnSync(nmap, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`nmap failed: ${r.stderr}`);
  const open = new Set<string>();
  for (const line of r.stdout.split("\n")) {
    const m = /^Host: (\S+) .*Ports: (.*)$/.exec(line);
    if (!m) continue;
    for (const entry of m[2]!.split(", ")) {
      const [port, state] = entry.split("/");
      if (state === "open") open.add(`${m[1]}:${port}`);
    }
  }
  return { ms, open };
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const fmt = (ms: number) => ms.toFixed(0).padStart(6);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const nmap = ensureNmap();
const bundled = await bundleScanProcess();
const newHost = () => createRealHost({ net: { helperEntry: bundled.helper } });
// The scanner's host, as at scanner start (its probe helper starts during the first round, when probes pile up).
const host = await newHost();
const listeners = await startListeners();
const { expected, skipped } = listeners;
console.log(
  `listeners: ${expected.size} open ports on ${HOSTS.length} loopback hosts × ${TOP_100_TCP_PORTS.length} ports` +
    ` (${HOSTS.length * TOP_100_TCP_PORTS.length} probes a scan); load average at start ${load()}`,
);
if (skipped.length > 0)
  console.log(`  (${skipped.length} planned ports already taken on this machine: ${skipped.slice(0, 5).join(" ")}…)`);

/**
 * Both scanners must agree, and find every port the listeners hold (a planned port already taken on this machine
 * is open too, but by someone else: then only agreement is required of it).
 */
function check(what: string, mine: Set<string>, nmapOpen: Set<string>): void {
  if (!sameSet(mine, nmapOpen)) mismatches.push(`${what}: hcs found ${mine.size} open ports, nmap ${nmapOpen.size}`);
  const missed = [...expected].filter((x) => !mine.has(x));
  if (missed.length > 0) mismatches.push(`${what}: hcs missed ${missed.slice(0, 5).join(" ")}`);
  const nmapMissed = [...expected].filter((x) => !nmapOpen.has(x));
  if (nmapMissed.length > 0) mismatches.push(`${what}: nmap missed ${nmapMissed.slice(0, 5).join(" ")}`);
}
let lastNmapOpen = new Set<string>();
const mismatches: string[] = [];
const ours: OurRound[] = [];
const theirs: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  // Alternate who goes first so neither always meets a warmer (or busier) kernel.
  const order = round % 2 === 1 ? ["ours", "nmap"] : ["nmap", "ours"];
  let mine: OurRound | undefined;
  let nm: { ms: number; open: Set<string> } | undefined;
  for (const who of order) {
    if (who === "ours") mine = await runOurs(async () => host);
    else nm = runNmap(nmap);
  }
  ours.push(mine!);
  theirs.push(nm!.ms);
  lastNmapOpen = nm!.open;
  check(`round ${round}`, mine!.open, nm!.open);
  console.log(
    `round ${round}: hcs ${fmt(mine!.ms)} ms (cpu ${fmt(mine!.cpuMs)} + helper ${fmt(mine!.helperCpuMs)} ms,` +
      ` ${mine!.helperProbes}/${mine!.probes} probes in the helper)   nmap ${fmt(nm!.ms)} ms`,
  );
}

// Cold: a fresh host created inside the timing, so the helper's start-up (a new Node process) is paid in the scan.
const cold: number[] = [];
for (let round = 1; round <= COLD_ROUNDS; round++) {
  const r = await runOurs(newHost);
  cold.push(r.ms);
  (r.host.net as RealNetProbe).engine?.close();
  check(`new-host round ${round}`, r.open, lastNmapOpen);
}

// A fresh scanner process per scan, alternating with nmap.
const script = bundled.script;
const fresh: FreshRun[] = [];
for (let round = 1; round <= FRESH_PROCESS_ROUNDS; round++) {
  const mineFirst = round % 2 === 1;
  const before = mineFirst ? null : runNmap(nmap);
  const r = runFreshProcess(script);
  const nm = before ?? runNmap(nmap);
  theirs.push(nm.ms);
  fresh.push(r);
  check(`fresh process ${round}`, new Set(r.open), nm.open);
}

// nmap's own start-up, included in its process wall time (ours is timed inside a running process): one probe.
const nmapStartup = [1, 2, 3].map(() => runNmap(nmap, "80", "127.0.1.1").ms);

const helperUsage = (await (host.net as RealNetProbe).engine?.helperUsage()) ?? [];
listeners.stop();
const oursMs = median(ours.map((r) => r.ms));
const nmapMs = median(theirs);
const mb = (bytes: number) => (bytes / 1048576).toFixed(0);
const benchRss = process.resourceUsage().maxRSS * 1024;
const helperRss = helperUsage.reduce((s, u) => s + u.maxRssBytes, 0);
const freshRss = Math.max(...fresh.map((f) => f.maxRssBytes));
const freshHelperRss = Math.max(...fresh.map((f) => f.helperMaxRssBytes));
console.log("");
console.log(`${"".padEnd(48)} median    min    max  (ms)`);
const row = (name: string, xs: readonly number[]) =>
  console.log(`${name.padEnd(48)} ${fmt(median(xs))} ${fmt(Math.min(...xs))} ${fmt(Math.max(...xs))}`);
row(
  `hcs ports phase, scanner running (${ROUNDS} rounds)`,
  ours.map((r) => r.ms),
);
row(`nmap -sT -T4 -n -Pn, process (${theirs.length} rounds)`, theirs);
row(
  `hcs first scan of a fresh process (${FRESH_PROCESS_ROUNDS} rounds)`,
  fresh.map((f) => f.ms[0]!),
);
row(`hcs with a new host (helper start timed) (${COLD_ROUNDS})`, cold);
row("nmap start-up alone (1 host, 1 port) (3)", nmapStartup);
console.log(
  `ratio hcs/nmap (medians): ${(oursMs / nmapMs).toFixed(2)} scanner running, ` +
    `${(median(fresh.map((f) => f.ms[0]!)) / nmapMs).toFixed(2)} first scan of a fresh process  (≤ 1.00: at least as fast)`,
);
console.log(
  `hcs CPU per scan (median): ${median(ours.map((r) => r.cpuMs)).toFixed(0)} ms in the scanner process + ` +
    `${median(ours.map((r) => r.helperCpuMs)).toFixed(0)} ms in the helper`,
);
console.log(
  `same open ports found: ${mismatches.length === 0 ? "yes" : "NO"} (${expected.size} planted; hcs = nmap ⊇ planted, every round)`,
);
for (const m of mismatches) console.log(`  ${m}`);
console.log(
  `peak RSS, scanner process of its own: ${mb(freshRss)} MB + helper ${mb(freshHelperRss)} MB = ` +
    `${mb(freshRss + freshHelperRss)} MB`,
);
console.log(
  `peak RSS, this bench process (scanner + tsx + ${ROUNDS + COLD_ROUNDS} scans): ${mb(benchRss)} MB + helper ${mb(helperRss)} MB`,
);
console.log(`load average at end ${load()} (2 cores; other work on the machine slows both scanners)`);
(host.net as RealNetProbe).engine?.close();
process.exitCode = mismatches.length === 0 ? 0 : 1;
