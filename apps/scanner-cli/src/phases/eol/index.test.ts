import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { assetInventoryPhase } from "../asset_inventory/index.js";
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

  /** A Debian host whose dpkg lists `packages` (name, version), through the real inventory phase. */
  async function debianWith(release: string, packages: readonly (readonly [string, string])[]) {
    const host = createFakeHost({
      platform: "linux",
      commands: {
        "dpkg-query -W -f=${Package}\t${Version}\n": packages.map(([n, v]) => `${n}\t${v}\n`).join(""),
      },
      sysinfo: { osInfo: { ...os, platform: "linux", distro: "Debian GNU/Linux", release } },
      now: new Date("2026-01-15T00:00:00Z"),
    });
    const [, r] = await runPhases({ host, phases: [assetInventoryPhase, eolPhase], scope, options: { ephiPaths: [] } });
    const facts = r!.facts as { software_source: string; products: Record<string, unknown>[] };
    return { findings: r!.findings, facts, product: (name: string) => facts.products.find((p) => p.name === name) };
  }

  it("judges packages by exact name: an OpenSSL engine at 3.0.1 is not OpenSSL 3.0", async () => {
    const r = await debianWith("12", [
      ["libengine-gost-openssl", "3.0.1-1"],
      ["python3-openssl", "23.0.0-1"],
      ["openssl", "3.0.19-1~deb12u2"],
    ]);
    expect(r.facts.software_source).toBe("dpkg");
    expect(r.facts.products.map((p) => p.name)).toEqual(["Debian GNU/Linux", "openssl"]);
    expect(r.findings).toEqual([]);
  });

  it("judges a distribution's build by the distribution's window, and says so", async () => {
    // Redis 7.0 left upstream's support on 2024-07-29; Debian 12 still patches its redis-server.
    const r = await debianWith("12", [["redis-server", "5:7.0.15-1~deb12u10"]]);
    expect(r.findings).toEqual([]);
    expect(r.product("redis-server")).toMatchObject({
      product: "redis",
      cycle: "7.0",
      status: "supported",
      support: "distribution",
      distribution: "debian@12",
      distribution_support_until: "2028-06-10",
      upstream_status: "eol",
      upstream_eol: "2024-07-29",
    });
  });

  it("an ended distribution release is one OS finding naming its server packages, not one per package", async () => {
    const r = await debianWith("9", [
      ["redis-server", "5:3.2.6-3+deb9u9"],
      ["openssh-server", "1:7.4p1-10+deb9u7"],
    ]);
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([["eol.end_of_life_os:debian@9", "critical"]]);
    expect(r.findings[0]?.evidence).toMatchObject({ distribution_packages: ["redis-server", "openssh-server"] });
    expect(r.product("redis-server")).toMatchObject({
      status: "eol",
      support: "distribution",
      distribution: "debian@9",
    });
  });

  it("a vendor's own build follows the vendor's lifecycle; one finding per product cycle whatever the versions", async () => {
    const r = await debianWith("12", [
      ["redis-server", "6:7.0.15-1rl1~bookworm1"],
      ["redis-server", "6:7.0.11-1rl1~bookworm1"],
    ]);
    const ids = r.findings.map((f) => f.id);
    expect(ids).toEqual(["eol.end_of_life_software:redis@7.0"]);
    expect(r.findings[0]?.evidence).toMatchObject({
      support: "upstream",
      version: "6:7.0.15-1rl1~bookworm1",
      also_seen: ["redis-server 6:7.0.11-1rl1~bookworm1"],
    });
  });
});
