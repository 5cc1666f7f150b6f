// The ports phase in a process of its own, as the installed scanner runs it (bundled to plain JavaScript by
// run.ts and started with plain `node`, no TypeScript loader): for the scanner's own peak RSS and its helper's.
// argv: rounds (default 1). Prints one JSON line: each scan's ms, the open ports found, peak RSS of this process and
// of its probe helper.
import type { RealNetProbe } from "../../apps/scanner-cli/src/host/net.js";
import { createRealHost } from "../../apps/scanner-cli/src/host/real-host.js";
import { TOP_100_TCP_PORTS } from "../../apps/scanner-cli/src/phases/ports/common-ports.js";
import { portsPhase } from "../../apps/scanner-cli/src/phases/ports/index.js";
import { openPortsOf } from "../../apps/scanner-cli/src/phases/ports/open-ports.js";
import { runPhases } from "../../apps/scanner-cli/src/runner/run-phases.js";

const HOSTS = Array.from({ length: 254 }, (_, i) => `127.0.1.${i + 1}`);
const rounds = Number(process.argv[2] ?? 1);

const host = await createRealHost();
// The probe helper starts during the first scan, at its first busy moment, as in a scanner run.
const engine = (host.net as RealNetProbe).engine;
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
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    helperMaxRssBytes: helpers.reduce((s, h) => s + h.maxRssBytes, 0),
  }),
);
engine?.close();
