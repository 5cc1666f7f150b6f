import { describe, expect, it } from "vitest";
import { checkAddressPolicy } from "../net/ip-policy.js";
import type { CachedDns } from "./cached-dns.js";
import { createHostGuard } from "./guard.js";
import type { DnsAnswer } from "./io/types.js";

function dnsWith(addresses: Record<string, DnsAnswer<string[]>>): CachedDns & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    txt: async () => ({ ok: false, code: "nxdomain" }),
    mx: async () => ({ ok: false, code: "nxdomain" }),
    addresses: async (name) => {
      asked.push(name);
      return addresses[name] ?? { ok: false, code: "nxdomain" };
    },
  };
}

describe("checkAddressPolicy", () => {
  it("blocks loopback, private, link-local and CGNAT addresses unless private targets are allowed", () => {
    const addresses = [
      "203.0.113.7",
      "127.0.10.1",
      "10.1.2.3",
      "169.254.169.254",
      "100.64.0.1",
      "::1",
      "fe80::1",
      "2606:4700::1111",
    ];
    expect(checkAddressPolicy(addresses, false)).toEqual([
      "203.0.113.7",
      "127.0.10.1",
      "10.1.2.3",
      "169.254.169.254",
      "100.64.0.1",
      "::1",
      "fe80::1",
    ]);
    expect(checkAddressPolicy(addresses, true)).toEqual([]);
  });

  it("lets public addresses through", () => {
    expect(checkAddressPolicy(["8.8.8.8", "2606:4700:4700::1111"], false)).toEqual([]);
  });
});

describe("createHostGuard", () => {
  it("refuses a name with any non-public address (DNS rebinding looks like this)", async () => {
    const guard = createHostGuard(
      dnsWith({ "mixed.example": { ok: true, records: ["8.8.8.8", "192.168.1.10"] } }),
      false,
    );
    expect(await guard("mixed.example")).toMatchObject({ ok: false, status: "refused", blocked: ["192.168.1.10"] });
  });

  it("allows loopback targets when the operator allows private targets", async () => {
    const guard = createHostGuard(dnsWith({ "www.sample.test": { ok: true, records: ["127.0.10.1"] } }), true);
    expect(await guard("www.sample.test")).toEqual({ ok: true, host: "www.sample.test", addresses: ["127.0.10.1"] });
  });

  it("judges an IP-literal host without asking DNS", async () => {
    const dns = dnsWith({});
    const guard = createHostGuard(dns, false);
    expect(await guard("127.0.0.1")).toMatchObject({ ok: false, status: "refused" });
    expect(await guard("8.8.4.4")).toMatchObject({ ok: true, addresses: ["8.8.4.4"] });
    expect(dns.asked).toEqual([]);
  });

  it("resolves each host once per scan", async () => {
    const dns = dnsWith({ "clinic.example": { ok: true, records: ["8.8.8.8"] } });
    const guard = createHostGuard(dns, false);
    await Promise.all([guard("clinic.example"), guard("CLINIC.example"), guard("clinic.example")]);
    expect(dns.asked).toEqual(["clinic.example"]);
  });

  it("maps DNS failures: timeout stays timeout, a missing name is unreachable", async () => {
    const guard = createHostGuard(dnsWith({ "slow.example": { ok: false, code: "timeout" } }), false);
    expect(await guard("slow.example")).toMatchObject({ ok: false, status: "timeout" });
    expect(await guard("gone.example")).toMatchObject({ ok: false, status: "unreachable" });
  });
});
