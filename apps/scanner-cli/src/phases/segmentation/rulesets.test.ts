import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { judgeRuleset, parseIptablesSave, parseNftJson, portAccepted } from "./rulesets.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const judgeNft = (name: string) => judgeRuleset(parseNftJson(fixture(name))!);
const judgeIpt = (name: string) => judgeRuleset(parseIptablesSave(fixture(name))!);

describe("nftables rule sets (nft -j list ruleset)", () => {
  it("an empty rule set filters nothing: no input chain, default accept", () => {
    expect(parseNftJson(fixture("linux-nft-json-empty.json"))).toEqual({ tool: "nftables", inputChains: [] });
    expect(judgeNft("linux-nft-json-empty.json")).toMatchObject({ defaultInput: "accept", refusingRules: 0 });
  });

  it("Debian's stock /etc/nftables.conf: input chain without rules or policy — accepts everything", () => {
    expect(judgeNft("linux-nft-json-debian-default.json")).toEqual({
      tool: "nftables",
      defaultInput: "accept",
      refusingRules: 0,
      inputRules: 0,
      jumpsNotFollowed: 0,
      acceptedFromAnywhere: [],
      acceptedFromSome: [],
      acceptsAllPortsFromSome: false,
    });
  });

  it("a default-drop rule set: what it accepts from anywhere, sets and ranges included, not loopback or a subnet", () => {
    const j = judgeNft("linux-nft-json-hardened.json");
    expect(j).toMatchObject({ defaultInput: "drop", inputRules: 8 });
    expect(j.acceptedFromAnywhere).toEqual([22, 3306, 80, 443, { from: 11000, to: 11200 }]);
    expect(portAccepted(j.acceptedFromAnywhere, 11112)).toBe(true);
    // 5432 is accepted from 192.168.50.0/24 only.
    expect(portAccepted(j.acceptedFromAnywhere, 5432)).toBe(false);
    expect(j.acceptedFromSome).toEqual([5432]);
    expect(j.acceptsAllPortsFromSome).toBe(false);
  });

  it("a policy of accept that ends in an unconditional reject refuses by default (firewalld's shape)", () => {
    const j = judgeNft("linux-nft-json-final-reject.json");
    expect(j).toMatchObject({ defaultInput: "drop", refusingRules: 1 });
    expect(j.acceptedFromAnywhere).toEqual([22, 3389]);
  });

  it("a deny-list: accept by default, refusing only what it names", () => {
    expect(judgeNft("linux-nft-json-deny-list.json")).toMatchObject({
      defaultInput: "accept",
      refusingRules: 2,
      acceptedFromAnywhere: [],
    });
  });

  it("refuses what is not nft's JSON", () => {
    expect(parseNftJson("Error: Operation not permitted")).toBeNull();
    expect(parseNftJson('{"something": []}')).toBeNull();
  });
});

describe("iptables rule sets (iptables-save)", () => {
  it("the filter table with every policy ACCEPT and no rules filters nothing", () => {
    expect(judgeIpt("linux-iptables-save-accept.txt")).toMatchObject({
      tool: "iptables",
      defaultInput: "accept",
      refusingRules: 0,
      inputRules: 0,
    });
    // No table at all (iptables-save prints nothing): nothing filters either.
    expect(judgeRuleset(parseIptablesSave("")!)).toMatchObject({ defaultInput: "accept", inputRules: 0 });
  });

  it("INPUT DROP with rules: single ports and multiport lists from anywhere, not a subnet's", () => {
    const j = judgeIpt("linux-iptables-save-drop.txt");
    expect(j).toMatchObject({ defaultInput: "drop", inputRules: 6 });
    expect(j.acceptedFromAnywhere).toEqual([22, 3389, 445, 139]);
    expect(portAccepted(j.acceptedFromAnywhere, 5432)).toBe(false);
  });

  it("refuses what is not iptables-save's", () => {
    expect(parseIptablesSave("iptables-save v1.8.9 (nf_tables): Could not fetch rule set generation id")).toBeNull();
  });
});
