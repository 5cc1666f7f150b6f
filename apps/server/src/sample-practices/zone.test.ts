import { describe, expect, it } from "vitest";
import { answerQuery, txtCharacterStrings, type Zone } from "./zone.js";

const zone: Zone = {
  origins: ["clinic.test"],
  records: [
    { name: "clinic.test", type: "A", address: "127.0.10.9" },
    { name: "clinic.test", type: "TXT", text: "v=spf1 -all" },
    { name: "www.clinic.test", type: "CNAME", target: "clinic.test" },
    { name: "selector1._domainkey.clinic.test", type: "TXT", text: "v=DKIM1; p=abc" },
  ],
};

describe("answerQuery", () => {
  it("answers the records of the asked type", () => {
    expect(answerQuery(zone, "clinic.test", "TXT")).toEqual({
      rcode: "NOERROR",
      answers: [{ name: "clinic.test", type: "TXT", text: "v=spf1 -all" }],
    });
  });

  it("follows a CNAME inside the zone", () => {
    expect(answerQuery(zone, "WWW.clinic.test.", "A")).toEqual({
      rcode: "NOERROR",
      answers: [
        { name: "www.clinic.test", type: "CNAME", target: "clinic.test" },
        { name: "clinic.test", type: "A", address: "127.0.10.9" },
      ],
    });
  });

  it("answers NODATA for a name with other types and for an empty non-terminal (RFC 8020)", () => {
    expect(answerQuery(zone, "clinic.test", "MX")).toEqual({ rcode: "NOERROR", answers: [] });
    expect(answerQuery(zone, "_domainkey.clinic.test", "TXT")).toEqual({ rcode: "NOERROR", answers: [] });
  });

  it("answers NXDOMAIN for names that do not exist and refuses other zones", () => {
    expect(answerQuery(zone, "google._domainkey.clinic.test", "TXT")).toEqual({ rcode: "NXDOMAIN" });
    expect(answerQuery(zone, "example.com", "A")).toEqual({ rcode: "REFUSED" });
  });
});

describe("txtCharacterStrings", () => {
  it("splits long values into 255-byte character-strings", () => {
    const key = "k".repeat(600);
    expect(txtCharacterStrings(key).map((s) => s.length)).toEqual([255, 255, 90]);
    expect(txtCharacterStrings(key).join("")).toBe(key);
  });
});
