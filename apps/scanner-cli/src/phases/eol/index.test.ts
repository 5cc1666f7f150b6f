import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { eolPhase } from "./index.js";

const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
const os = {
  platform: "",
  distro: "",
  release: "",
  codename: "",
  kernel: "",
  arch: "x64",
  hostname: "fd-01",
  build: "",
};

describe("eol phase", () => {
  it("caps the grade for an end-of-life OS and records the dataset date", async () => {
    const host = createFakeHost({
      platform: "linux",
      sysinfo: { osInfo: { ...os, platform: "linux", distro: "Debian GNU/Linux", release: "9" } },
      now: new Date("2026-01-15T00:00:00Z"),
    });
    const [r] = await runPhases({ host, phases: [eolPhase], scope, options: { ephiPaths: [] } });
    expect(r?.status).toBe("ok");
    expect((r!.facts as { dataset_date: string }).dataset_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r?.findings.map((f) => [f.check_id, f.severity, f.grade_cap])).toEqual([
      ["eol.end_of_life_os", "critical", "end_of_life_system"],
    ]);
  });

  it("says nothing about a supported OS", async () => {
    const host = createFakeHost({
      platform: "linux",
      sysinfo: { osInfo: { ...os, platform: "linux", distro: "Debian GNU/Linux", release: "12" } },
      now: new Date("2026-01-15T00:00:00Z"),
    });
    const [r] = await runPhases({ host, phases: [eolPhase], scope, options: { ephiPaths: [] } });
    expect(r?.findings).toEqual([]);
  });
});
