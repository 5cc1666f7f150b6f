import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFakeHost, type FakeCommand } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { portsPhase } from "../ports/index.js";
import { segmentationPhase } from "./index.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
const NOT_ROOT: FakeCommand = { permissionDenied: true, stderr: "Operation not permitted (you must be root)" };

async function segmentationWith(commands: Record<string, string | FakeCommand>) {
  const host = createFakeHost({ platform: "linux", commands });
  const [r] = await runPhases({ host, phases: [segmentationPhase], scope, options: { ephiPaths: [] } });
  return r!;
}

describe("segmentation on Linux without ufw: the kernel's rule set", () => {
  it("an empty nftables rule set is a firewall that is off, never unknown", async () => {
    const r = await segmentationWith({ "nft -j list ruleset": fixture("linux-nft-json-empty.json") });
    expect(r.facts).toMatchObject({ firewall: "inactive", firewall_tool: "nftables" });
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([["segmentation.host_firewall_off", "medium"]]);
    expect(r.findings[0]?.evidence).toMatchObject({ firewall: "nftables", default_input: "accept", input_rules: 0 });
  });

  it("iptables-save with every policy ACCEPT (nft not installed) is off too", async () => {
    const r = await segmentationWith({ "iptables-save": fixture("linux-iptables-save-accept.txt") });
    expect(r.facts).toMatchObject({ firewall: "inactive", firewall_tool: "iptables" });
    expect(r.findings.map((f) => f.id)).toEqual(["segmentation.host_firewall_off"]);
  });

  it("default drop: each sensitive service accepted from any address is a finding (a range counts)", async () => {
    const r = await segmentationWith({ "nft -j list ruleset": fixture("linux-nft-json-hardened.json") });
    expect(r.facts).toMatchObject({
      firewall: "active",
      firewall_ruleset: { default_input: "drop", accepted_from_anywhere: [22, 3306, 80, 443, "11000-11200"] },
    });
    expect(r.findings.map((f) => [f.id, f.severity, f.title])).toEqual([
      [
        "segmentation.firewall_open_to_any:3306",
        "medium",
        "The host firewall accepts MySQL (TCP 3306) from any address",
      ],
      [
        "segmentation.firewall_open_to_any:11112",
        "medium",
        "The host firewall accepts dicom (TCP 11112) from any address",
      ],
    ]);
    expect(r.findings.every((f) => f.controls.includes("164.312(e)(1)") && f.category === "network_security")).toBe(
      true,
    );
  });

  it("iptables INPUT DROP opening RDP and SMB to everyone", async () => {
    const r = await segmentationWith({
      "nft -j list ruleset": { notFound: true },
      "iptables-save": fixture("linux-iptables-save-drop.txt"),
    });
    expect(r.findings.map((f) => f.id)).toEqual([
      "segmentation.firewall_open_to_any:139",
      "segmentation.firewall_open_to_any:445",
      "segmentation.firewall_open_to_any:3389",
    ]);
  });

  it("a deny-list that accepts by default is a low finding, not a clean bill", async () => {
    const r = await segmentationWith({ "nft -j list ruleset": fixture("linux-nft-json-deny-list.json") });
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([["segmentation.firewall_default_accept", "low"]]);
  });

  it("nothing readable without root: unknown with every reason, and host mode does not read as ok", async () => {
    const r = await segmentationWith({
      "nft -j list ruleset": NOT_ROOT,
      "iptables-save": NOT_ROOT,
      "ufw status verbose": NOT_ROOT,
    });
    expect(r.status).toBe("skipped");
    expect(r.reason).toBe(
      "the host firewall's state could not be read (nft needs administrator (root) privileges; iptables-save needs administrator (root) privileges; ufw needs administrator (root) privileges) and no --targets were given to test reachability",
    );
  });

  it("without root, ufw's own view still counts", async () => {
    const r = await segmentationWith({
      "nft -j list ruleset": NOT_ROOT,
      "ufw status verbose": fixture("linux-ufw-status-inactive.txt"),
    });
    expect(r.facts).toMatchObject({ firewall: "inactive", firewall_tool: "ufw" });
  });

  it("targets: a loopback target's socket bound to loopback only is never 'reachable from this segment'", async () => {
    // This machine's socket table (MySQL, PostgreSQL, Redis on 127.0.0.1), PostgreSQL moved to every interface.
    const table = readFileSync(new URL("../ports/fixtures/linux-proc-net-tcp.txt", import.meta.url), "utf8").replace(
      "0100007F:1538",
      "00000000:1538",
    );
    const host = createFakeHost({
      platform: "linux",
      files: { "/proc/net/tcp": table },
      net: { open: ["127.0.0.1:3306", "127.0.0.1:5432", "127.0.0.1:6379", "127.0.1.9:2575"] },
      commands: { "iptables-save": fixture("linux-iptables-save-accept.txt") },
    });
    const targets = { mode: "targets" as const, hosts: ["127.0.0.1", "127.0.1.9"], given: ["127.0.0.1", "127.0.1.9"] };
    const [, r] = await runPhases({
      host,
      phases: [portsPhase, segmentationPhase],
      scope: targets,
      options: { ephiPaths: [] },
    });
    expect(
      r!.findings.filter((f) => f.check_id === "segmentation.sensitive_service_reachable").map((f) => f.id),
    ).toEqual([
      "segmentation.sensitive_service_reachable:127.0.0.1:5432",
      "segmentation.sensitive_service_reachable:127.0.1.9:2575",
    ]);
  });
});
