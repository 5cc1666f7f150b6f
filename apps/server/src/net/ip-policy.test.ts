import { describe, expect, it } from "vitest";
import { isLoopbackAddress, isPublicAddress } from "./ip-policy.js";

describe("isPublicAddress", () => {
  it.each(["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001::200e"])("public %s", (a) => {
    expect(isPublicAddress(a)).toBe(true);
  });
  it.each([
    "127.0.0.1",
    "127.12.0.9",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "192.0.2.10",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "fc12::1",
    "2001:db8::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:7f00:1",
    "0:0:0:0:0:ffff:127.0.0.1",
    "ff02::1",
    "localhost",
    "example.org",
    "",
    "1.2.3",
  ])("not public %s", (a) => {
    expect(isPublicAddress(a)).toBe(false);
  });
  it("judges IPv4-mapped IPv6 by the IPv4 address", () => {
    expect(isPublicAddress("::ffff:808:808")).toBe(true);
  });
  it("172.32.0.1 is outside 172.16/12", () => {
    expect(isPublicAddress("172.32.0.1")).toBe(true);
  });
});

describe("isLoopbackAddress", () => {
  it("knows loopback", () => {
    expect(isLoopbackAddress("127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("127.5.6.7")).toBe(true);
    expect(isLoopbackAddress("::1")).toBe(true);
    expect(isLoopbackAddress("10.0.0.1")).toBe(false);
  });
});
