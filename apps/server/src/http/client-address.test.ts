import { describe, expect, it } from "vitest";
import { anonymousBucketOf } from "../net/address-bucket.js";
import {
  clientAddressOf,
  forwardedProtoOf,
  normalizeAddress,
  parseTrustProxy,
  type TrustProxy,
} from "./client-address.js";

const trust = (raw: string) => parseTrustProxy(raw) as TrustProxy;

describe("clientAddressOf", () => {
  it("without trusted proxies the socket's peer is the client, whatever X-Forwarded-For says", () => {
    expect(clientAddressOf("203.0.113.9", "1.2.3.4", trust("0"))).toEqual({ ip: "203.0.113.9", trustedHops: 0 });
  });

  it.each([
    // [XFF as the proxy forwarded it, expected client] with one trusted hop (peer 10.0.0.2 is the proxy)
    ["198.51.100.7", "198.51.100.7"],
    ["6.6.6.6, 198.51.100.7", "198.51.100.7"], // a client-chosen entry before the proxy's own is ignored
    ["<script>alert(1)</script>, 198.51.100.7", "198.51.100.7"],
    ["1.1.1.1,2.2.2.2,3.3.3.3, 198.51.100.7", "198.51.100.7"],
    ["", "10.0.0.2"], // a proxy that sends no XFF: the proxy is all we know
    ["<script>", "10.0.0.2"], // never client-chosen text
    ["198.51.100.7:51234", "198.51.100.7"],
    ["[2001:db8::7]:443", "2001:db8::7"],
    ["::ffff:198.51.100.7", "198.51.100.7"],
  ])("one trusted hop: X-Forwarded-For %j → %s", (xff, ip) => {
    expect(clientAddressOf("10.0.0.2", xff, trust("1")).ip).toBe(ip);
  });

  it("N hops: takes the address the outermost trusted proxy appended", () => {
    // client → CDN (appends client) → load balancer (appends CDN) → us
    expect(clientAddressOf("10.0.0.2", "9.9.9.9, 198.51.100.7, 203.0.113.50", trust("2"))).toEqual({
      ip: "198.51.100.7",
      trustedHops: 2,
    });
  });

  it("a proxy list trusts only hops from listed addresses; a direct client's header is ignored", () => {
    const t = trust("10.0.0.0/8, 2001:db8:1::/48");
    expect(clientAddressOf("10.1.2.3", "6.6.6.6, 198.51.100.7, 10.9.9.9", t)).toEqual({
      ip: "198.51.100.7",
      trustedHops: 2,
    });
    expect(clientAddressOf("198.51.100.7", "6.6.6.6", t)).toEqual({ ip: "198.51.100.7", trustedHops: 0 });
    expect(clientAddressOf("::ffff:10.1.2.3", "2001:db8:9::1", t).ip).toBe("2001:db8:9::1");
  });
});

describe("forwardedProtoOf", () => {
  it("believes the entry of the outermost trusted proxy only", () => {
    expect(forwardedProtoOf("http", 0)).toBeNull();
    expect(forwardedProtoOf("http", 1)).toBe("http");
    expect(forwardedProtoOf("https, http", 1)).toBe("http"); // the client prepended https
    expect(forwardedProtoOf("http, https", 2)).toBe("http");
    expect(forwardedProtoOf("", 1)).toBeNull();
  });
});

describe("parseTrustProxy", () => {
  it.each(["maybe", "11", "10.0.0.0/33", "10.0.0.0/8/1", "fe80::1%eth0", "example.org"])("refuses %s", (raw) => {
    expect(typeof parseTrustProxy(raw)).toBe("string");
  });
});

describe("normalizeAddress and anonymous buckets", () => {
  it("accepts only IP addresses", () => {
    expect(normalizeAddress("x".repeat(3000))).toBeNull();
    expect(normalizeAddress("fe80::1%eth0")).toBeNull();
    expect(normalizeAddress(" 192.0.2.1 ")).toBe("192.0.2.1");
  });

  it("buckets IPv6 clients by /64 and IPv4 clients by address", () => {
    expect(anonymousBucketOf("2001:db8:aa:bb:1:2:3:4")).toBe("2001:db8:aa:bb::/64");
    expect(anonymousBucketOf("2001:db8:aa:bb::ffff")).toBe("2001:db8:aa:bb::/64");
    expect(anonymousBucketOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(anonymousBucketOf("198.51.100.7")).toBe("198.51.100.7");
  });
});
