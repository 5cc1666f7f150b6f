import type { JsonObject } from "@hcs/protocol";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { mapBounded } from "../shared/bounded.js";
import { ok } from "../shared/outcome.js";
import { isUnavailable, type Reading } from "../shared/unavailable.js";
import { darwinNeighbours } from "./darwin.js";
import { linuxNeighbours } from "./linux.js";
import type { Neighbour } from "./parse.js";
import { windowsNeighbours } from "./win32.js";

/** Ports whose answer (open or refused) proves a host is up, without ICMP (which needs raw sockets). */
const LIVENESS_PORTS = [80, 443, 22, 445, 3389, 135, 139, 8080];
const LIVENESS_TIMEOUT_MS = 800;

/** Host identity, interfaces, gateway, neighbours, and which in-scope hosts answer (phase 1, docs/scanner.md). */
export const discoveryPhase = definePhase({
  id: "discovery",
  readers: { linux: linuxNeighbours, darwin: darwinNeighbours, win32: windowsNeighbours },
  // The neighbour table is one part of discovery: without it, interfaces and live hosts are still reported.
  readingIsPart: true,
  run: discover,
});

async function discover(ctx: PhaseContext, neighbours: Reading<Neighbour[]>): Promise<PhaseOutcome> {
  const { host } = ctx;
  const [os, interfaces, gateway, live] = await Promise.all([
    host.sysinfo.osInfo(),
    host.sysinfo.networkInterfaces(),
    host.sysinfo.defaultGateway(),
    liveHosts(ctx),
  ]);
  const facts: JsonObject = {
    hostname: os.hostname,
    platform: host.platform,
    os: [os.distro, os.release].filter(Boolean).join(" "),
    interfaces: interfaces
      .filter((i) => !i.internal && (i.ip4 || i.ip6))
      .map((i) => ({
        iface: i.iface,
        ip4: i.ip4,
        ip4_netmask: i.ip4subnet,
        ip6: i.ip6,
        mac: i.mac,
        up: i.operstate === "up",
      })),
    gateway,
    scope_mode: ctx.scope.mode,
    hosts_in_scope: ctx.scope.hosts.length,
    live_hosts: live,
  };
  if (isUnavailable(neighbours)) facts.neighbours_unavailable = neighbours.message;
  else facts.neighbours = neighbours.map((n) => ({ address: n.address, mac: n.mac, iface: n.iface }));
  return ok(facts);
}

/** In-scope hosts that answer a TCP connect on any liveness port (first answer wins). */
async function liveHosts(ctx: PhaseContext): Promise<string[]> {
  const budget = await ctx.host.net.socketBudget();
  const answered = await mapBounded(ctx.scope.hosts, budget, async (address) => {
    for (const port of LIVENESS_PORTS) {
      if (ctx.signal.aborted) return false;
      const r = await ctx.host.net.connect(address, port, LIVENESS_TIMEOUT_MS, ctx.signal);
      if (r.state !== "filtered") return true;
    }
    return false;
  });
  return ctx.scope.hosts.filter((_, i) => answered[i]);
}
