// bench/port-scan: our TCP connect scanner against `nmap -sT -T4 -n -Pn`, same targets, same run.
// Listeners on a known set of ports spread over 127.0.1.1–127.0.1.254 (loopback only, by construction),
// 254 hosts × the top-100 TCP ports. Prints both wall times, the ratio, whether both found the same open ports,
// and our RSS. Run: npx tsx bench/port-scan/run.ts [rounds]
import { execFileSync, spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import { createNetProbe } from "../../apps/scanner-cli/src/host/net.js";
import { TOP_100_TCP_PORTS } from "../../apps/scanner-cli/src/phases/ports/common-ports.js";
import { scanTcpPorts } from "../../apps/scanner-cli/src/phases/ports/scanner.js";

const HOSTS = Array.from({ length: 254 }, (_, i) => `127.0.1.${i + 1}`);
const ROUNDS = Number(process.argv[2] ?? 5);

/** Every 4th host listens on 1–3 of the top-100 ports, risky ones included; a deterministic spread. */
function plannedListeners(): { host: string; port: number }[] {
  const out: { host: string; port: number }[] = [];
  for (let i = 0; i < HOSTS.length; i += 4) {
    const count = 1 + (i % 3);
    for (let k = 0; k < count; k++) out.push({ host: HOSTS[i]!, port: TOP_100_TCP_PORTS[(i * 7 + k * 31) % 100]! });
  }
  return out;
}

async function openListeners(): Promise<{ servers: Server[]; expected: Set<string>; skipped: string[] }> {
  const servers: Server[] = [];
  const expected = new Set<string>();
  const skipped: string[] = [];
  for (const { host, port } of plannedListeners()) {
    const server = createServer((socket) => socket.destroy());
    const ok = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, host, () => resolve(true));
    });
    if (ok) {
      servers.push(server);
      expected.add(`${host}:${port}`);
    } else {
      skipped.push(`${host}:${port}`);
    }
  }
  return { servers, expected, skipped };
}

function ensureNmap(): string {
  const found = spawnSync("sh", ["-c", "command -v nmap"], { encoding: "utf8" }).stdout.trim();
  if (found) return found;
  console.log("nmap not found: installing it from Debian (apt-get install -y nmap)");
  execFileSync("apt-get", ["install", "-y", "-qq", "nmap"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return spawnSync("sh", ["-c", "command -v nmap"], { encoding: "utf8" }).stdout.trim();
}

async function runOurs(): Promise<{ ms: number; open: Set<string>; peakRssMb: number }> {
  const net = createNetProbe();
  const budget = await net.socketBudget();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const report = await scanTcpPorts({ net, hosts: HOSTS, ports: TOP_100_TCP_PORTS, concurrency: budget });
  const ms = performance.now() - started;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  return { ms, open: new Set(report.open.map((o) => `${o.host}:${o.port}`)), peakRssMb: peakRss / 1024 / 1024 };
}

function runNmap(nmap: string): { ms: number; open: Set<string> } {
  const args = ["-sT", "-T4", "-n", "-Pn", "-p", TOP_100_TCP_PORTS.join(","), "-oG", "-", "127.0.1.1-254"];
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

const nmap = ensureNmap();
const { servers, expected, skipped } = await openListeners();
console.log(
  `listeners: ${expected.size} open ports on ${HOSTS.length} loopback hosts × ${TOP_100_TCP_PORTS.length} ports`,
);
if (skipped.length > 0)
  console.log(`  (${skipped.length} planned ports already taken on this machine: ${skipped.slice(0, 5).join(" ")}…)`);
const ours: number[] = [];
const theirs: number[] = [];
let agree = true;
let peakRssMb = 0;
let oursFound = 0;
let nmapFound = 0;
for (let round = 1; round <= ROUNDS; round++) {
  // Alternate who goes first so neither always meets a warmer kernel.
  const order = round % 2 === 1 ? ["ours", "nmap"] : ["nmap", "ours"];
  for (const who of order) {
    if (who === "ours") {
      const r = await runOurs();
      ours.push(r.ms);
      peakRssMb = Math.max(peakRssMb, r.peakRssMb);
      oursFound = r.open.size;
      agree &&= [...expected].every((x) => r.open.has(x));
      (globalThis as { lastOurs?: Set<string> }).lastOurs = r.open;
    } else {
      const r = runNmap(nmap);
      theirs.push(r.ms);
      nmapFound = r.open.size;
      (globalThis as { lastNmap?: Set<string> }).lastNmap = r.open;
    }
  }
  const g = globalThis as { lastOurs?: Set<string>; lastNmap?: Set<string> };
  agree &&= sameSet(g.lastOurs!, g.lastNmap!);
  console.log(`round ${round}: hcs ${ours.at(-1)!.toFixed(0)} ms, nmap ${theirs.at(-1)!.toFixed(0)} ms`);
}
for (const s of servers) s.close();
const oursMs = median(ours);
const nmapMs = median(theirs);
console.log("");
console.log(`hcs scanner   median ${oursMs.toFixed(0)} ms  (${oursFound} open ports found)`);
console.log(`nmap -sT -T4  median ${nmapMs.toFixed(0)} ms  (${nmapFound} open ports found, process wall time)`);
console.log(`ratio hcs/nmap: ${(oursMs / nmapMs).toFixed(2)}  (≤ 1.00 means we are at least as fast)`);
console.log(`same open ports found: ${agree ? "yes" : "NO"}  (expected ${expected.size})`);
console.log(`hcs peak RSS: ${peakRssMb.toFixed(0)} MB`);
process.exitCode = agree ? 0 : 1;
