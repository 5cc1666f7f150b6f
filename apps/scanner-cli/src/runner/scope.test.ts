import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NetworkInterface } from "../host/host.js";
import { ScopeError } from "./errors.js";
import { formatIpv4, formatIpv6, netmaskPrefix, parseIpv4, parseIpv6 } from "./ip.js";
import { buildScanScope, type ScopeDeps } from "./scope.js";

const iface = (over: Partial<NetworkInterface>): NetworkInterface => ({
  iface: "eth0",
  ip4: "",
  ip4subnet: "",
  ip6: "",
  mac: "",
  internal: false,
  virtual: false,
  operstate: "up",
  ...over,
});

const deps = (dns: Record<string, string[]> = {}, interfaces: NetworkInterface[] = []): ScopeDeps => ({
  resolve: async (name) => dns[name] ?? [],
  interfaces: async () => interfaces,
});

async function scopeError(promise: Promise<unknown>): Promise<ScopeError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof ScopeError) return e;
    throw e;
  }
  throw new Error("expected a ScopeError");
}

describe("buildScanScope", () => {
  it("without targets scans this host through loopback only", async () => {
    expect(await buildScanScope(undefined, deps())).toEqual({ mode: "host", hosts: ["127.0.0.1"], given: [] });
    expect(await buildScanScope("", deps())).toMatchObject({ mode: "host" });
  });

  it("expands addresses and CIDRs, dropping network and broadcast addresses", async () => {
    const s = await buildScanScope("127.0.1.0/30, 127.0.2.7 ::1", deps());
    expect(s).toEqual({
      mode: "targets",
      hosts: ["127.0.1.1", "127.0.1.2", "127.0.2.7", "::1"],
      given: ["127.0.1.0/30", "127.0.2.7", "::1"],
    });
    expect((await buildScanScope(["127.0.1.0/24"], deps())).hosts).toHaveLength(254);
    expect((await buildScanScope("127.0.1.9/32", deps())).hosts).toEqual(["127.0.1.9"]);
    expect((await buildScanScope("[::1]/127", deps())).hosts).toEqual(["::", "::1"]);
  });

  it("resolves host names through the injected resolver", async () => {
    const s = await buildScanScope("pacs.clinic.example", deps({ "pacs.clinic.example": ["127.0.5.5", "::1"] }));
    expect(s.hosts).toEqual(["127.0.5.5", "::1"]);
    // The addresses of named targets are kept apart: the upload lists them so the server knows what was examined.
    expect(s.named).toEqual(["127.0.5.5", "::1"]);
    const mixed = await buildScanScope(
      "127.0.0.0/30,pacs.clinic.example",
      deps({ "pacs.clinic.example": ["127.0.5.5"] }),
    );
    expect([mixed.given, mixed.named]).toEqual([["127.0.0.0/30", "pacs.clinic.example"], ["127.0.5.5"]]);
    expect((await buildScanScope("127.0.0.0/30", deps())).named).toBeUndefined();
    expect((await scopeError(buildScanScope("nowhere.example", deps()))).code).toBe("unresolvable_target");
  });

  it("rejects bad input with typed errors naming the target", async () => {
    const cases: [string, string][] = [
      ["127.0.0.1/33", "invalid_target"],
      ["999.1.1.1", "invalid_target"],
      ["10.0.0.0/8", "cidr_too_large"],
      ["fd00::/64", "cidr_too_large"],
      ["bad_name!", "invalid_target"],
      ["auto,127.0.0.1", "auto_not_alone"],
      ["127.0.0.0/20 127.1.0.0/20", "scope_too_large"],
    ];
    for (const [targets, code] of cases) {
      const e = await scopeError(buildScanScope(targets, deps()));
      expect([targets, e.code]).toEqual([targets, code]);
    }
    expect((await scopeError(buildScanScope("127.0.0.1, 10.0.0.0/8", deps()))).target).toBe("10.0.0.0/8");
  });

  it("`auto` takes this host's IPv4 subnets, at most a /24 each, never loopback or link-local", async () => {
    const s = await buildScanScope(
      "auto",
      deps({}, [
        iface({ iface: "lo", ip4: "127.0.0.1", ip4subnet: "255.0.0.0", internal: true }),
        iface({ ip4: "192.168.10.37", ip4subnet: "255.255.0.0" }),
        iface({ iface: "wlan0", ip4: "169.254.3.4", ip4subnet: "255.255.0.0" }),
        iface({ iface: "eth1", ip4: "10.1.2.3", ip4subnet: "255.255.255.248" }),
      ]),
    );
    expect(s.mode).toBe("auto");
    expect(s.given).toEqual(["192.168.10.0/24", "10.1.2.0/29"]);
    expect(s.hosts).toHaveLength(254 + 6);
    expect(s.hosts[0]).toBe("192.168.10.1");
    expect((await scopeError(buildScanScope("auto", deps()))).code).toBe("no_local_subnet");
  });
});

describe("ip arithmetic", () => {
  it("round-trips every IPv4 and IPv6 address", () => {
    fc.assert(fc.property(fc.ipV4(), (a) => formatIpv4(parseIpv4(a)!) === a));
    fc.assert(fc.property(fc.ipV6(), (a) => parseIpv6(formatIpv6(parseIpv6(a)!)) === parseIpv6(a)));
  });

  it("writes IPv6 the RFC 5952 way", () => {
    expect(formatIpv6(parseIpv6("2001:0db8:0000:0000:0001:0000:0000:0001")!)).toBe("2001:db8::1:0:0:1");
    expect(formatIpv6(parseIpv6("::ffff:127.0.0.1")!)).toBe("::ffff:7f00:1");
    expect(parseIpv6("1::2::3")).toBeNull();
  });

  it("reads contiguous netmasks only", () => {
    expect(netmaskPrefix("255.255.255.0")).toBe(24);
    expect(netmaskPrefix("255.255.255.255")).toBe(32);
    expect(netmaskPrefix("255.0.255.0")).toBeNull();
  });
});
