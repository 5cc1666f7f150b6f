import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseBsdArp, parseIpNeigh, parseWindowsArp } from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("discovery parsers", () => {
  it("reads ip -j neigh and drops entries that never answered", () => {
    expect(parseIpNeigh(fixture("linux-ip-neigh.json"))).toEqual([
      { address: "192.0.2.1", mac: "02:fc:00:00:00:05", iface: "eth0", state: "stale" },
    ]);
    expect(parseIpNeigh("not json")).toEqual([]);
  });

  it("reads macOS arp -an without multicast entries", () => {
    const n = parseBsdArp(fixture("darwin-arp-an.txt"));
    expect(n).toHaveLength(10);
    expect(n[0]).toEqual({ address: "192.168.1.63", mac: "e0:33:8e:67:38:d6", iface: "en0", state: "reachable" });
    expect(n.find((x) => x.address === "192.168.1.222")?.state).toBe("permanent");
  });

  it("reads Windows arp -a without multicast entries", () => {
    const n = parseWindowsArp(fixture("win32-arp-a.txt"));
    expect(n.map((x) => x.address)).toEqual(["172.16.5.5", "172.16.5.130", "172.16.5.240"]);
    expect(n[0]).toEqual({ address: "172.16.5.5", mac: "00:50:56:b9:08:26", iface: "172.16.5.25", state: "reachable" });
    expect(parseWindowsArp("unrecognised output")).toEqual([]);
  });
});
