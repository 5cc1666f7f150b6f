import { describe, expect, it } from "vitest";
import { createHostGuard } from "../external-scan/guard.js";
import { vetCallbackUrl } from "../webhooks/target-policy.js";
import { embeddedIpv4, isPublicAddress } from "./ip-policy.js";
import { ipv6Groups } from "./ipv6.js";

describe("isPublicAddress", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    // IPv4-embedding forms are judged by the embedded address: these deliver to public IPv4 hosts.
    "::ffff:808:808",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
  ])("public %s", (a) => {
    expect(isPublicAddress(a)).toBe(true);
  });

  // Table: address → why it must be refused. Every IPv4-embedding form with a private embedded address is here.
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.12.0.9", "loopback"],
    ["10.1.2.3", "RFC 1918"],
    ["172.16.0.1", "RFC 1918"],
    ["172.31.255.255", "RFC 1918"],
    ["192.168.1.1", "RFC 1918"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "CGNAT"],
    ["0.0.0.0", "this network"],
    ["192.0.2.10", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fd00::1", "unique local"],
    ["fc12::1", "unique local"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation (RFC 9637)"],
    ["ff02::1", "multicast"],
    ["fec0::1", "site-local (deprecated, still routed internally)"],
    ["feff::1", "site-local upper end"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["0:0:0:0:0:ffff:127.0.0.1", "IPv4-mapped loopback, long form"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped link-local"],
    ["::ffff:0:7f00:1", "IPv4-translated loopback (RFC 2765)"],
    ["::ffff:0:10.0.0.1", "IPv4-translated private"],
    ["64:ff9b::a9fe:a9fe", "NAT64 well-known prefix embedding 169.254.169.254"],
    ["64:ff9b::a00:1", "NAT64 well-known prefix embedding 10.0.0.1"],
    ["64:ff9b::127.0.0.1", "NAT64 well-known prefix embedding loopback"],
    ["64:ff9b:1::808:808", "local-use NAT64 (RFC 8215)"],
    ["::127.0.0.1", "IPv4-compatible (deprecated) loopback"],
    ["::7f00:1", "IPv4-compatible (deprecated) loopback, hex"],
    ["::8.8.8.8", "IPv4-compatible (deprecated): never a public host"],
    ["2002:7f00:1::", "6to4 embedding loopback"],
    ["2002:a00:1::1", "6to4 embedding 10.0.0.1"],
    ["2002:c0a8:101::1", "6to4 embedding 192.168.1.1"],
    ["2001::1", "Teredo"],
    ["100::1", "discard-only"],
    ["localhost", "not an address"],
    ["example.org", "not an address"],
    ["", "empty"],
    ["1.2.3", "not an address"],
  ])("not public %s (%s)", (a) => {
    expect(isPublicAddress(a)).toBe(false);
  });
});

describe("embeddedIpv4", () => {
  it.each([
    ["::ffff:7f00:1", "127.0.0.1"],
    ["::ffff:0:a00:1", "10.0.0.1"],
    ["64:ff9b::a9fe:a9fe", "169.254.169.254"],
    ["2002:c0a8:101::1", "192.168.1.1"],
    ["2606:4700:4700::1111", null],
  ])("%s carries %s", (a, v4) => {
    expect(embeddedIpv4(ipv6Groups(a)!)).toBe(v4);
  });
});

describe("the SSRF guard applies the policy to literal URLs and to DNS answers", () => {
  const resolvingTo = (address: string) => async () => [address];

  it.each(["[64:ff9b::a9fe:a9fe]", "[::127.0.0.1]", "[::ffff:127.0.0.1]", "[2002:7f00:1::]", "[fec0::1]"])(
    "callback_url https://%s/ is refused",
    async (host) => {
      await expect(vetCallbackUrl(`https://${host}/hook`, { allowPrivateTargets: false })).rejects.toMatchObject({
        code: "invalid_callback_url",
      });
    },
  );

  it.each(["64:ff9b::a00:1", "::7f00:1", "::ffff:0:7f00:1", "2002:a00:1::1"])(
    "a callback host resolving to %s is refused",
    async (address) => {
      await expect(
        vetCallbackUrl("https://hooks.example.org/x", { allowPrivateTargets: false, resolve: resolvingTo(address) }),
      ).rejects.toMatchObject({ code: "invalid_callback_url" });
    },
  );

  it.each(["64:ff9b::a00:1", "::7f00:1"])("the external scan refuses a site resolving to %s", async (address) => {
    const guard = createHostGuard(
      { addresses: async () => ({ ok: true as const, records: [address] }) } as never,
      false,
    );
    expect(await guard("www.clinic.example")).toMatchObject({ ok: false, status: "refused", blocked: [address] });
  });
});
