// The ports phase in a process of its own, as the installed scanner runs it (bundled to plain JavaScript by
// run.ts and started with plain `node`, no TypeScript loader): for the scanner's own peak RSS and its helper's.
// argv: rounds, then the open ports expected as JSON. Prints one JSON line.
import { setTimeout as sleep } from "node:timers/promises";
import type { RealNetProbe } from "../../apps/scanner-cli/src/host/net.js";
import { createRealHost } from "../../apps/scanner-cli/src/host/real-host.js";
import { TOP_100_TCP_PORTS } from "../../apps/scanner-cli/src/phases/ports/common-ports.js";
import { portsPhase } from "../../apps/scanner-cli/src/phases/ports/index.js";
import { openPortsOf } from "../../apps/scanner-cli/src/phases/ports/open-ports.js";
import { runPhases } from "../../apps/scanner-cli/src/runner/run-phases.js";

const HOSTS = Array.from({ length: 254 }, (_, i) => `127.0.1.${i + 1}`);
const rounds = Number(process.argv[2] ?? 1);

const startedAt = performance.now();
const host = await createRealHost();
const engine = (host.net as RealNetProbe).engine;
// Stand-in for the phases that run before ports (discovery alone takes longer): the helper starts meanwhile.
while (engine && engine.stats().helpersReady === 0 && performance.now() - startedAt < 2_000) await sleep(10);
const helperReadyMs = performance.now() - startedAt;
const rssBeforeScanBytes = process.memoryUsage.rss();
const ms: number[] = [];
let open: string[] = [];
for (let i = 0; i < rounds; i++) {
  const t0 = performance.now();
  const [result] = await runPhases({
    host,
    phases: [portsPhase],
    scope: { mode: "targets", hosts: HOSTS, given: ["127.0.1.1-254"] },
    options: { ephiPaths: [], ports: TOP_100_TCP_PORTS },
  });
  ms.push(performance.now() - t0);
  open = (openPortsOf(result) ?? []).map((o) => `${o.host}:${o.port}`);
}
const helpers = (await engine?.helperUsage()) ?? [];
console.log(
  JSON.stringify({
    ms,
    open,
    helperReadyMs,
    rssBeforeScanBytes,
    heapUsedAfterBytes: process.memoryUsage().heapUsed,
    heapTotalAfterBytes: process.memoryUsage().heapTotal,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    helperMaxRssBytes: helpers.reduce((s, h) => s + h.maxRssBytes, 0),
  }),
);
engine?.close();
