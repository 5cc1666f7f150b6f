import { describe, expect, it } from "vitest";
import { matchEntityName } from "./breach-match.js";
import { entityNameKeys } from "./entity-names.js";
import { type KevEntry, kevFindings, matchKev, SITE_KEV_CHECK, siteKevFindings } from "./host-findings.js";
import { inventoryFromDisclosure } from "./inventory.js";
import { affectedRanges, judgeVersion } from "./kev-ranges.js";
import { inventoryProductKeys, kevProductKey, normalizeProductName } from "./product-identity.js";

describe("entity names", () => {
  it("folds legal suffixes, punctuation, & and d/b/a", () => {
    expect(entityNameKeys("Jefferson Dental Center, Inc.")).toEqual(["jefferson dental center"]);
    expect(entityNameKeys("Vann Virginia Center for Orthopaedics, PC dba Atlantic Orthopaedic Specialists")).toEqual([
      "vann virginia center for orthopaedics",
      "atlantic orthopaedic specialists",
    ]);
    expect(entityNameKeys("The Smith & Jones Medical Ctr., P.C., LLC")).toEqual(["smith and jones medical center"]);
  });
  it("scores identical, normalized and d/b/a matches, and refuses near-misses", () => {
    expect(matchEntityName("Atrium Health", "ATRIUM HEALTH")).toEqual({ confidence: 1, basis: "identical_name" });
    expect(matchEntityName("Ardon Health", "Ardon Health, LLC")).toEqual({ confidence: 0.9, basis: "normalized_name" });
    expect(
      matchEntityName(
        "Atlantic Orthopedic Specialists",
        "Vann Virginia Center for Orthopaedics, PC dba Atlantic Orthopaedic Specialists",
      ),
    ).toEqual({
      confidence: 0.8,
      basis: "dba_name",
    });
    for (const [a, b] of [
      ["Jefferson Dental Clinic", "Jefferson Dental Center, Inc."],
      ["Atrium Health Navicent", "Atrium Health"],
      ["East Paris Internal Medicine", "East Paris Internal Medicine Associates, PC"],
      ["Colonial Behavioral Health Services", "Colonial Behavioral Health"],
      ["Ardon Dental", "Ardon Health, LLC"],
    ]) {
      expect(matchEntityName(a!, b!), `${a} ~ ${b}`).toBeNull();
    }
  });
});

describe("KEV version ranges", () => {
  it("reads before / through / and earlier / branch-before forms", () => {
    expect(judgeVersion("2.4.48", affectedRanges("This issue affects Apache HTTP Server 2.4.48 and earlier."))).toBe(
      "affected",
    );
    expect(judgeVersion("2.4.49", affectedRanges("This issue affects Apache HTTP Server 2.4.48 and earlier."))).toBe(
      "fixed",
    );
    expect(judgeVersion("3.14.9", affectedRanges("Nexus Repository Manager before 3.15.0 has a flaw."))).toBe(
      "affected",
    );
    expect(judgeVersion("4.3", affectedRanges("GNU Bash through 4.3 processes trailing strings"))).toBe("affected");
    const openssl = affectedRanges("OpenSSL 1.0.2 before 1.0.2k and 1.1.0 before 1.1.0d allow attacks.");
    expect(judgeVersion("1.0.2j", openssl)).toBe("affected");
    expect(judgeVersion("1.0.2k", openssl)).toBe("fixed");
    expect(judgeVersion("3.0.1", openssl)).toBe("unknown");
  });
  it("never confirms a distribution package below a range (fixes are backported), but still rules newer ones out", () => {
    const ranges = affectedRanges("OpenSSH 8.5p1 before 9.8p1 contains a signal-handler race.");
    expect(judgeVersion("9.6p1", ranges)).toBe("affected");
    expect(judgeVersion("1:9.2p1-2+deb12u6", ranges)).toBe("unknown");
    expect(judgeVersion("1:9.6p1-3ubuntu13.5", ranges)).toBe("unknown");
    expect(judgeVersion("1:9.9p1-1", ranges)).toBe("fixed");
    expect(judgeVersion("2.4.37-65.module+el8.10.0", affectedRanges("Apache HTTP Server 2.4.48 and earlier"))).toBe(
      "unknown",
    );
  });
  it("cannot judge without stated ranges or a readable version", () => {
    expect(judgeVersion("10.0.19045", affectedRanges("Microsoft Windows contains a privilege escalation."))).toBe(
      "unknown",
    );
    expect(judgeVersion("latest", affectedRanges("before 2.4.50"))).toBe("unknown");
    expect(affectedRanges("iOS before 8 and Apple TV before 7")).toEqual([]);
  });
});

describe("product identity", () => {
  it("maps inventory and KEV names of the same product to one key", () => {
    expect(kevProductKey("Apache", "HTTP Server")).toBe("apache-http-server");
    expect(inventoryProductKeys("apache2")).toEqual(["apache-http-server"]);
    expect(inventoryProductKeys("Apache")).toEqual(["apache-http-server"]);
    expect(kevProductKey("OpenBSD", "OpenSSH")).toBe("openssh");
    expect(inventoryProductKeys("openssh-server")).toEqual(["openssh"]);
    expect(kevProductKey("Roundcube", "Webmail")).toBe("name:roundcube webmail");
    expect(inventoryProductKeys("Roundcube Webmail 1.6.5")).toEqual(["name:roundcube webmail"]);
    expect(inventoryProductKeys("Mozilla Firefox (x64 en-US)")).toEqual(["firefox"]);
  });
  it("never keys generic names", () => {
    expect(kevProductKey("Microsoft", "Windows")).toBeNull();
    expect(kevProductKey("Apple", "Multiple Products")).toBeNull();
    expect(inventoryProductKeys("kernel")).toEqual([]);
    expect(normalizeProductName("Microsoft Exchange Server 2019 CU12")).toBe("microsoft exchange server");
  });
});

describe("KEV matches on versions a public site discloses", () => {
  const entry = (description: string): KevEntry => ({
    cveId: "CVE-2021-40438",
    vendorProject: "Apache",
    product: "Apache",
    productKey: "apache-http-server",
    name: "Apache HTTP Server-Side Request Forgery (SSRF)",
    dateAdded: "2021-12-01",
    description,
    requiredAction: "Apply updates per vendor instructions.",
    dueDate: "2021-12-15",
    ransomware: "Unknown",
    ranges: affectedRanges(description),
  });
  const kev = [entry("This issue affects Apache HTTP Server 2.4.48 and earlier.")];
  const disclosed = (software: object[]) =>
    inventoryFromDisclosure({ url: "https://www.x.test/", software }, "www.x.test");
  const today = new Date("2026-01-10T00:00:00Z");

  it("an upstream build in a stated range is an external finding with the documented confidence", () => {
    const items = disclosed([{ header: "server", product: "Apache", version: "2.4.41", build: "(Win64)" }]);
    const findings = siteKevFindings(matchKev(items, kev), "2025.08.25", today);
    expect(findings).toEqual([
      expect.objectContaining({
        id: `${SITE_KEV_CHECK}:CVE-2021-40438@www.x.test/Apache`,
        source: "external",
        category: "application_security",
        severity: "high",
        grade_cap: "known_exploited_past_due",
        host: "www.x.test",
        evidence: expect.objectContaining({
          via: "server_banner",
          version_match: "affected",
          seen_on: "site:www.x.test",
        }),
      }),
    ]);
    // The same match is never an internal finding: those are a scanner host's.
    expect(kevFindings(matchKev(items, kev), "frontdesk-01", "2025.08.25", today)).toEqual([]);
  });

  it("a distribution's build, a version past the range, or no range is never graded", () => {
    for (const build of ["(Ubuntu)", "(CentOS)", "-4ubuntu2.18", "(Red Hat Enterprise Linux)"]) {
      const items = disclosed([{ header: "server", product: "Apache", version: "2.4.41", build }]);
      expect(
        matchKev(items, kev).map((m) => m.version),
        build,
      ).toEqual(["unknown"]);
      expect(siteKevFindings(matchKev(items, kev), "v", today), build).toEqual([]);
    }
    // Evidence recorded before the check kept build notes (no `build` key) cannot rule a distribution's build out.
    const unrecorded = disclosed([{ header: "server", product: "Apache", version: "2.4.41" }]);
    expect(matchKev(unrecorded, kev).map((m) => m.version)).toEqual(["unknown"]);
    const upstream = disclosed([{ header: "server", product: "Apache", version: "2.4.41", build: null }]);
    expect(matchKev(upstream, kev).map((m) => m.version)).toEqual(["affected"]);
    const patched = disclosed([{ header: "server", product: "Apache", version: "2.4.62", build: null }]);
    expect(matchKev(patched, kev)).toEqual([]);
    const rangeless = [entry("Apache HTTP Server contains a path traversal vulnerability.")];
    const old = disclosed([{ header: "server", product: "Apache", version: "2.4.49", build: null }]);
    expect(matchKev(old, rangeless).map((m) => m.version)).toEqual(["unknown"]);
    expect(siteKevFindings(matchKev(old, rangeless), "v", today)).toEqual([]);
  });
});
