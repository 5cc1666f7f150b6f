import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PHASE_IDS, PhaseResultSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { createRealHost } from "../host/real-host.js";
import type { RunnerEvent } from "../runner/events.js";
import { runPhases } from "../runner/run-phases.js";
import { buildScanScope } from "../runner/scope.js";
import { PHASE_REGISTRY } from "./registry.js";

// Runs every phase for real on this machine. Network scope is loopback only (no --targets): nothing else is probed.
describe.runIf(process.platform === "linux")("every phase on this Linux machine, loopback scope", () => {
  it("produces schema-valid results for all 12 phases, none failed, within the time budget", async () => {
    const host = await createRealHost();
    const scope = await buildScanScope(undefined, {
      resolve: host.net.resolve,
      interfaces: host.sysinfo.networkInterfaces,
    });
    expect(scope).toEqual({ mode: "host", hosts: ["127.0.0.1"], given: [] });
    const ephiDir = await mkdtemp(join(tmpdir(), "hcs-int-"));
    await writeFile(join(ephiDir, "note.txt"), "MRN: 00482913\n");
    const refused: string[] = [];
    const started = performance.now();
    try {
      const results = await runPhases({
        host,
        phases: PHASE_REGISTRY,
        scope,
        options: { ephiPaths: [ephiDir] },
        onEvent: (e: RunnerEvent) => {
          if (e.type === "phase_log" && e.message.startsWith("refused")) refused.push(e.message);
        },
      });
      const elapsed = performance.now() - started;
      expect(results.map((r) => r.id)).toEqual(PHASE_IDS);
      for (const r of results) {
        const parsed = PhaseResultSchema.safeParse(r);
        expect(parsed.success, `${r.id}: ${parsed.error?.message}`).toBe(true);
        expect(r.status, `${r.id}: ${r.reason ?? ""}`).not.toBe("failed");
      }
      expect(results.find((r) => r.id === "ephi_flow")?.facts).toMatchObject({ files_flagged: 1 });
      // Listeners come from this machine's socket table; nothing bound to loopback only is called exposed.
      const ports = results.find((r) => r.id === "ports")!;
      expect(ports.facts.listener_source).toBe("proc_net_tcp");
      const loopbackOnly = new Set(
        (ports.facts.listening as { port: number; exposure: string }[])
          .filter((l) => l.exposure === "loopback")
          .map((l) => l.port),
      );
      for (const f of ports.findings.filter((x) => x.check_id === "ports.risky_service")) {
        expect(f.evidence).toMatchObject({ exposure: "network" });
        expect(loopbackOnly.has((f.evidence as { port: number }).port)).toBe(false);
      }
      expect(refused).toEqual([]);
      expect(elapsed).toBeLessThan(30_000);
    } finally {
      await rm(ephiDir, { recursive: true, force: true });
    }
  }, 60_000);
});
