import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharedDataFile } from "../test-support/shared-data.js";
import { parseKevCatalogue } from "./kev-json.js";
import { type AffectedRange, affectedRanges, judgeVersion, kevAffectedRanges } from "./kev-ranges.js";
import { compareVersions, formatVersion, parseVersion } from "./versions.js";

const KEV = sharedDataFile("cisa-kev/known_exploited_vulnerabilities.json", "CISA KEV catalogue");

/** A range as words, for readable expectations: `[from, to)` / `[from, to]` / `[from, …)`, with the branch. */
const show = (r: AffectedRange) =>
  `${r.branch ? `${formatVersion(r.branch)}.x ` : ""}${r.from ? `[${formatVersion(r.from)}` : "(…"}, ${
    r.below ? `${formatVersion(r.below)})` : r.upTo ? `${formatVersion(r.upTo)}]` : "…)"
  }`;
const read = (text: string) => affectedRanges(text).map(show);

// Strings captured from catalogue 2025.08.25 (the field they are in, and the entry), as the parser must read them.
const CAPTURED = {
  ivantiCsa: // CVE-2024-9379, shortDescription
    "Ivanti Cloud Services Appliance (CSA) contains a SQL injection vulnerability in the admin web console in versions prior to 5.0.2, which can allow a remote attacker authenticated as administrator to run arbitrary SQL statements.",
  jaiExt: // CVE-2022-24816, notes
    "This vulnerability affects a common open-source component, third-party library, or a protocol used by different products. The patched JAI-EXT is version 1.1.22: https://github.com/geosolutions-it/jai-ext/releases/tag/1.1.22, https://github.com/geosolutions-it/jai-ext/security/advisories/GHSA-v92f-jx6p-73rx;  https://nvd.nist.gov/vuln/detail/CVE-2022-24816",
  unrar: // CVE-2022-30333, notes (the URL's "612" is no version statement)
    "Vulnerability updated with version 6.12. Accessing link will download update information: https://www.rarlab.com/rar/rarlinux-x32-612.tar.gz;  https://nvd.nist.gov/vuln/detail/CVE-2022-30333",
  exiftool: // CVE-2021-22204, shortDescription
    "Improper neutralization of user data in the DjVu file format in Exiftool versions 7.44 and up allows arbitrary code execution when parsing the malicious image",
  struts1: // CVE-2006-1547, shortDescription: BeanUtils 1.7 is a dependency's version, not a range
    "ActionForm in Apache Struts versions before 1.2.9 with BeanUtils 1.7 contains a vulnerability that allows for denial-of-service (DoS).",
  struts2: // CVE-2012-0391, shortDescription
    "The ExceptionDelegator component in Apache Struts 2 before 2.2.3.1 contains an improper input validation vulnerability that allows for remote code execution.",
  osx: "Heap-based buffer overflow in IOHIDFamily in Apple OS X, which affects, iOS before 8 and Apple TV before 7, allows attackers to execute arbitrary code in a privileged context.", // CVE-2014-4404, shortDescription: single numbers, and of other products
  serviceDesk: // CVE-2021-44077, shortDescription: build numbers
    "Zoho ManageEngine ServiceDesk Plus before 11306, ServiceDesk Plus MSP before 10530, and SupportCenter Plus before 11014 are vulnerable to unauthenticated remote code execution",
  smb: "A remote code execution vulnerability exists in the way that the Microsoft Server Message Block 3.1.1 (SMBv3) protocol handles certain requests.", // CVE-2020-0796, shortDescription: a protocol's version
  hfs: "The patched Rejetto HTTP File Server (HFS) is version 3: https://github.com/rejetto/hfs?tab=readme-ov-file#installation, https://www.rejetto.com/hfs/ ;   https://nvd.nist.gov/vuln/detail/CVE-2024-23692", // CVE-2024-23692, notes: a single number
  spring: "Spring Framework JDK 9+ Remote Code Execution Vulnerability", // CVE-2022-22965, vulnerabilityName
  apache: // CVE-2021-40438, shortDescription
    "A crafted request uri-path can cause mod_proxy to forward the request to an origin server choosen by the remote user. This issue affects Apache HTTP Server 2.4.48 and earlier.",
  servU: // CVE-2021-35247, shortDescription
    "SolarWinds Serv-U versions 15.2.5 and earlier contain an improper input validation vulnerability that allows attackers to build and send queries without sanitization.",
  routerOs: // CVE-2018-14847, shortDescription
    "MikroTik RouterOS through 6.42 allows unauthenticated remote attackers to read arbitrary files and remote authenticated attackers to write arbitrary files due to a directory traversal vulnerability in the WinBox interface.",
};

describe("affected ranges in KEV prose", () => {
  it("reads the forms real entries use, in the description and the notes", () => {
    expect(read(CAPTURED.ivantiCsa)).toEqual(["(…, 5.0.2)"]);
    expect(read(CAPTURED.jaiExt)).toEqual(["(…, 1.1.22)"]);
    expect(read(CAPTURED.unrar)).toEqual(["(…, 6.12)"]);
    expect(read(CAPTURED.exiftool)).toEqual(["[7.44, …)"]);
    expect(read(CAPTURED.struts1)).toEqual(["(…, 1.2.9)"]);
    expect(read(CAPTURED.struts2)).toEqual(["2.x (…, 2.2.3.1)"]);
    expect(read(CAPTURED.apache)).toEqual(["(…, 2.4.48]"]);
    expect(read(CAPTURED.servU)).toEqual(["(…, 15.2.5]"]);
    expect(read(CAPTURED.routerOs)).toEqual(["(…, 6.42]"]);
  });

  it("reads nothing from single numbers, build numbers, other components' versions and URLs", () => {
    expect(read(CAPTURED.osx)).toEqual([]);
    expect(read(CAPTURED.serviceDesk)).toEqual([]);
    expect(read(CAPTURED.smb)).toEqual([]);
    expect(read(CAPTURED.hfs)).toEqual([]);
    expect(read(CAPTURED.spring)).toEqual([]);
    expect(read("See https://example.test/advisory?fixed-in=2.4.51 before 3 days")).toEqual([]);
  });

  it("reads the other usual forms: <, <=, through, earlier than, two-sided ranges, lower bounds, fixes named", () => {
    expect(read("Foo versions < 3.1.4 are affected")).toEqual(["(…, 3.1.4)"]);
    expect(read("Foo <= 3.1.2 allows")).toEqual(["(…, 3.1.2]"]);
    expect(read("Foo ≤ 3.1.2 allows")).toEqual(["(…, 3.1.2]"]);
    expect(read("Foo up to and including 1.2.3 allows")).toEqual(["(…, 1.2.3]"]);
    expect(read("Foo earlier than 9.0.1 allows")).toEqual(["(…, 9.0.1)"]);
    expect(read("Foo 3.0 or prior")).toEqual(["(…, 3.0]"]);
    expect(read("Apache HTTP Server 2.4.49 through 2.4.50 allows path traversal")).toEqual(["[2.4.49, 2.4.50]"]);
    expect(read("from version 1.1 to 1.3 of Foo")).toEqual(["[1.1, 1.3]"]);
    expect(read("versions between 9.0 and 9.3 are affected")).toEqual(["[9.0, 9.3]"]);
    expect(read("OpenSSH 8.5p1 before 9.8p1 contains a race")).toEqual(["[8.5p1, 9.8p1)"]);
    expect(read("OpenSSL 1.0.2 before 1.0.2k and 1.1.0 before 1.1.0d")).toEqual([
      "1.0.2.x (…, 1.0.2k)",
      "1.1.0.x (…, 1.1.0d)",
    ]);
    expect(read("Foo 2.0 and later; fixed in 2.5.1")).toEqual(["(…, 2.5.1)", "[2.0, …)"]);
    expect(read("Users should update to version 2.4.51")).toEqual(["(…, 2.4.51)"]);
    // A range stated backwards is no range.
    expect(read("Foo 2.4.50 through 2.4.49")).toEqual([]);
  });

  it("collects the ranges of an entry's description, name and notes once each", () => {
    const ranges = kevAffectedRanges({
      shortDescription: "Foo before 2.4.50 allows",
      vulnerabilityName: "Foo Before 2.4.50 Path Traversal",
      notes: "The patched Foo is version 2.4.51: https://foo.test/2.4.52",
    });
    expect(ranges.map(show)).toEqual(["(…, 2.4.50)", "(…, 2.4.51)"]);
  });
});

describe("judging a version against the stated ranges", () => {
  it("confirms only versions a range holds; outside every range the version shows it fixed", () => {
    const csa = affectedRanges(CAPTURED.ivantiCsa);
    expect(judgeVersion("5.0.1", csa)).toBe("affected");
    expect(judgeVersion("5.0.2", csa)).toBe("fixed");
    expect(judgeVersion("5.0.10", csa)).toBe("fixed");
    const twoSided = affectedRanges("Apache HTTP Server 2.4.49 through 2.4.50 allows");
    expect(judgeVersion("2.4.50", twoSided)).toBe("affected");
    expect(judgeVersion("2.4.48", twoSided)).toBe("fixed");
    expect(judgeVersion("2.4.51", twoSided)).toBe("fixed");
  });

  it("never confirms on a lower bound alone: above it is unknown, below it fixed", () => {
    const exif = affectedRanges(CAPTURED.exiftool);
    expect(judgeVersion("12.40", exif)).toBe("unknown");
    expect(judgeVersion("7.44", exif)).toBe("unknown");
    expect(judgeVersion("7.43", exif)).toBe("fixed");
  });

  it("a distribution's build in the range is unknown (fixes are backported); past the range it is still fixed", () => {
    const apache = affectedRanges(CAPTURED.apache);
    expect(judgeVersion("2.4.41", apache)).toBe("affected");
    expect(judgeVersion("2.4.41", apache, true)).toBe("unknown");
    expect(judgeVersion("2.4.41-4ubuntu3.14", apache)).toBe("unknown");
    expect(judgeVersion("2.4.62", apache, true)).toBe("fixed");
  });

  it("says affected exactly below an upper bound, and never throws on any text (properties)", () => {
    const version = fc
      .tuple(fc.array(fc.nat({ max: 40 }), { minLength: 2, maxLength: 4 }), fc.constantFrom("", "a", "k", "p1"))
      .map(([parts, suffix]) => parts.join(".") + suffix);
    fc.assert(
      fc.property(version, version, fc.constantFrom("before", "prior to", "<"), (bound, installed, word) => {
        const verdict = judgeVersion(installed, affectedRanges(`Foo ${word} ${bound} allows`));
        const below = compareVersions(parseVersion(installed)!, parseVersion(bound)!) < 0;
        expect(verdict).toBe(below ? "affected" : "fixed");
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 40 }), (text, installed) => {
        // Hostile prose never throws, and every range it yields has an upper or a lower bound.
        for (const r of affectedRanges(text)) expect(r.below ?? r.upTo ?? r.from).toBeDefined();
        expect(["affected", "fixed", "unknown"]).toContain(judgeVersion(installed, affectedRanges(text)));
      }),
      { numRuns: 300 },
    );
  });
});

describe.skipIf(!KEV)("the real catalogue", () => {
  it("yields ranges for the entries that state versions, none that contradicts its own text", () => {
    const kev = parseKevCatalogue(readFileSync(KEV!, "utf8"));
    const stated = kev.vulnerabilities
      .map((v) => ({ cve: v.cveID, ranges: kevAffectedRanges(v) }))
      .filter((e) => e.ranges.length > 0);
    // Catalogue 2025.08.25: 18 of 1,404 entries state a readable range, 17 with an upper bound (docs/intelligence.md).
    if (kev.catalogVersion === "2025.08.25") {
      expect(stated.length).toBe(18);
      expect(stated.filter((e) => e.ranges.some((r) => r.below || r.upTo)).length).toBe(17);
      expect(stated.map((e) => e.cve)).toEqual(
        expect.arrayContaining([
          "CVE-2024-9379",
          "CVE-2022-24816",
          "CVE-2022-30333",
          "CVE-2021-22204",
          "CVE-2021-40438",
        ]),
      );
    }
    // Every bound's own version is judged as the words say: "before X" leaves X fixed, "through X" holds X.
    for (const { ranges } of stated)
      for (const r of ranges) {
        if (r.below) expect(judgeVersion(formatVersion(r.below), [r]), r.source).toBe("fixed");
        if (r.upTo) expect(judgeVersion(formatVersion(r.upTo), [r]), r.source).toBe("affected");
      }
  });
});
