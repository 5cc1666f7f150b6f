import { PhaseResultSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { portsPhase } from "./index.js";
import { openPortsOf } from "./open-ports.js";

describe("ports phase", () => {
  it("flags risky services on the hosts in scope and records every open port", async () => {
    const host = createFakeHost({
      platform: "linux",
      net: { open: ["127.0.1.5:23", "127.0.1.5:443", "127.0.1.9:2575", "127.0.1.9:104", "127.0.1.9:5432"] },
    });
    const scope = { mode: "targets" as const, hosts: ["127.0.1.5", "127.0.1.9"], given: ["127.0.1.5", "127.0.1.9"] };
    const [result] = await runPhases({ host, phases: [portsPhase], scope, options: { ephiPaths: [] } });
    expect(PhaseResultSchema.parse(result).status).toBe("ok");
    expect(result!.findings.map((f) => [f.id, f.severity])).toEqual([
      ["ports.risky_service:127.0.1.5:23", "critical"],
      ["ports.risky_service:127.0.1.9:104", "high"],
      ["ports.risky_service:127.0.1.9:2575", "high"],
      ["ports.risky_service:127.0.1.9:5432", "high"],
    ]);
    expect(
      result!.findings.every((f) => f.controls.includes("164.312(e)(1)") && f.category === "network_security"),
    ).toBe(true);
    expect(openPortsOf({ status: "ok", facts: result!.facts, findings: [] })).toHaveLength(5);
    expect(host.calls.connect.every((c) => c.startsWith("127.0.1.5:") || c.startsWith("127.0.1.9:"))).toBe(true);
  });

  it("probes only loopback in host mode", async () => {
    const host = createFakeHost({ platform: "win32", net: { open: ["127.0.0.1:3389"] } });
    const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
    const [result] = await runPhases({ host, phases: [portsPhase], scope, options: { ephiPaths: [] } });
    expect(result!.findings[0]?.title).toContain("this machine");
    expect(new Set(host.calls.connect.map((c) => c.split(":")[0]))).toEqual(new Set(["127.0.0.1"]));
  });
});
