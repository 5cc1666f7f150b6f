import { describe, expect, it } from "vitest";
import { spfZoneDns, type ZoneData } from "../test-support/spf-zone.js";
import { checkHost } from "./spf-eval.js";
import { spfIdentity } from "./spf-names.js";

/** check_host() for mail from `mailfrom` sent by `ip`, over an inline zone in the openspf suite's format. */
async function check(zone: ZoneData, mailfrom: string, ip: string, helo = "mail.example.net") {
  const { sender, domain } = spfIdentity(mailfrom, helo);
  return checkHost({ ip, domain, sender, helo, now: new Date("2025-01-01T00:00:00Z") }, spfZoneDns(zone));
}

describe("checkHost (RFC 7208 check_host)", () => {
  it("passes a listed address and fails the rest with the exp= explanation", async () => {
    const zone: ZoneData = {
      "clinic.example": [{ TXT: "v=spf1 ip4:192.0.2.0/24 -all exp=why.clinic.example" }],
      "why.clinic.example": [{ TXT: "%{i} may not send for %{d}" }],
    };
    expect(await check(zone, "a@clinic.example", "192.0.2.7")).toEqual({ result: "pass", explanation: null });
    expect(await check(zone, "a@clinic.example", "198.51.100.1")).toEqual({
      result: "fail",
      explanation: "198.51.100.1 may not send for clinic.example",
    });
  });

  it("treats a macro-expanded target with a label over 63 octets as a name that does not exist", async () => {
    // %{l} of a 70-character local-part makes one 70-octet label: no query is made and the mechanism does not match.
    const local = "x".repeat(70);
    const zone: ZoneData = { "clinic.example": [{ TXT: "v=spf1 exists:%{l}.allow.clinic.example ?all" }] };
    let asked = 0;
    const dns = spfZoneDns(zone);
    const counting = {
      ...dns,
      a: async (name: string) => {
        asked++;
        return dns.a(name);
      },
    };
    const outcome = await checkHost(
      { ip: "192.0.2.1", domain: "clinic.example", sender: `${local}@clinic.example`, helo: "h.example" },
      counting,
    );
    expect(outcome.result).toBe("neutral");
    expect(asked).toBe(0);
  });

  it("truncates an expanded name over 253 octets from the left (§7.3)", async () => {
    const long = `${"l".repeat(60)}.${"m".repeat(60)}.${"n".repeat(60)}.${"o".repeat(60)}`;
    const zone: ZoneData = {
      "clinic.example": [{ TXT: "v=spf1 exists:%{l}.%{d} -all" }],
      [`${"m".repeat(60)}.${"n".repeat(60)}.${"o".repeat(60)}.clinic.example`]: [{ A: "127.0.0.2" }],
    };
    const { result } = await checkHost(
      { ip: "192.0.2.1", domain: "clinic.example", sender: `${long}@clinic.example`, helo: "h.example" },
      spfZoneDns(zone),
    );
    expect(result).toBe("pass");
  });

  it("makes an include of a domain without SPF a permerror, and a temporary DNS failure a temperror", async () => {
    const zone: ZoneData = {
      "a.example": [{ TXT: "v=spf1 include:gone.example -all" }],
      "b.example": [{ TXT: "v=spf1 include:slow.example -all" }],
      "slow.example": ["TIMEOUT"],
    };
    expect((await check(zone, "x@a.example", "192.0.2.1")).result).toBe("permerror");
    expect((await check(zone, "x@b.example", "192.0.2.1")).result).toBe("temperror");
  });

  it("stops at the 11th DNS-querying term and the 3rd void lookup (§4.6.4)", async () => {
    const zone: ZoneData = {
      "many.example": [{ TXT: `v=spf1 ${"a ".repeat(11)}-all` }, { A: "198.51.100.9" }],
      "voids.example": [{ TXT: "v=spf1 a:n1.voids.example a:n2.voids.example a:n3.voids.example -all" }],
    };
    expect(await check(zone, "x@many.example", "192.0.2.1")).toMatchObject({ result: "permerror" });
    expect(await check(zone, "x@voids.example", "192.0.2.1")).toMatchObject({ result: "permerror" });
  });

  it("returns none for a sender domain that is not a multi-label DNS name (§4.3)", async () => {
    expect((await check({}, "", "192.0.2.1", "localhost")).result).toBe("none");
    expect((await check({}, "x@[192.0.2.1]", "192.0.2.1")).result).toBe("none");
  });
});
