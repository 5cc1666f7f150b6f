import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FirewallReading } from "../segmentation/firewall.js";
import { judgeRuleset, parseIptablesSave, parseNftJson } from "../segmentation/rulesets.js";
import { firewallExposure } from "./firewall-exposure.js";

const seg = (name: string) => readFileSync(new URL(`../segmentation/fixtures/${name}`, import.meta.url), "utf8");
const active = (ruleset: ReturnType<typeof judgeRuleset>): FirewallReading => ({
  tool: ruleset.tool,
  state: "active",
  ruleset,
});

describe("the firewall's part in exposure", () => {
  it("iptables default drop (captured): 22 and 3389 from anywhere, 5432 from 10.0.0.0/8, 6379 dropped", () => {
    const fw = active(judgeRuleset(parseIptablesSave(seg("linux-iptables-save-drop.txt"))!));
    expect(firewallExposure(fw, 3389, false)).toMatchObject({ reachable: true, confidence: "high" });
    expect(firewallExposure(fw, 5432, false)).toMatchObject({ reachable: "restricted", confidence: "high" });
    expect(firewallExposure(fw, 6379, false)).toMatchObject({ reachable: false, confidence: "high" });
    // iptables-save says nothing about IPv6: an IPv6 socket's verdict is less sure.
    expect(firewallExposure(fw, 6379, true)).toMatchObject({ reachable: false, confidence: "medium" });
  });

  it("an accepting rule set, an inactive or unreadable firewall, a partial Windows one", () => {
    const empty = judgeRuleset(parseNftJson(seg("linux-nft-json-empty.json"))!);
    expect(firewallExposure({ tool: "nftables", state: "inactive", ruleset: empty }, 5432, false)).toMatchObject({
      reachable: true,
      confidence: "high",
    });
    const denyList = active(judgeRuleset(parseNftJson(seg("linux-nft-json-deny-list.json"))!));
    expect(firewallExposure(denyList, 5432, false)).toMatchObject({ reachable: true, confidence: "medium" });
    expect(firewallExposure({ tool: "ufw", state: "inactive" }, 5432, false)).toMatchObject({
      reachable: true,
      confidence: "medium",
    });
    expect(firewallExposure({ tool: "ufw", state: "active" }, 5432, false)).toMatchObject({ reachable: "unknown" });
    expect(firewallExposure({ tool: "ufw", state: "unknown", reason: "nft needs root" }, 5432, false)).toEqual({
      reachable: "unknown",
      confidence: "low",
      basis: "the host firewall could not be read (nft needs root)",
    });
    expect(
      firewallExposure({ tool: "windows_firewall", state: "partial", profilesOff: ["Public"] }, 1433, false),
    ).toMatchObject({ reachable: "unknown", confidence: "medium" });
  });

  it("default drop with jumps not followed (ufw's chains): unknown, never 'dropped'", () => {
    const j = judgeRuleset({
      tool: "iptables",
      inputChains: [
        {
          name: "filter/INPUT",
          policy: "drop",
          rules: [
            {
              verdict: "jump",
              fromAnywhere: true,
              loopback: false,
              conntrack: false,
              ports: "any",
              otherConditions: false,
            },
          ],
        },
      ],
    });
    expect(firewallExposure(active(j), 3306, false)).toMatchObject({ reachable: "unknown", confidence: "medium" });
  });
});
