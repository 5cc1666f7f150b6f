import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import mappingJson from "./lynis-hipaa-map.json" with { type: "json" };
import { entryFor, parseLynisMapping } from "./mapping.js";
import { parseLynisReport } from "./report.js";
import { scannerCheckIds } from "./scanner-checks.js";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");

describe("the Lynis → scanner mapping (lynis-hipaa-map.json)", () => {
  const mapping = parseLynisMapping(mappingJson);
  const known = scannerCheckIds();

  it("is valid: every relevant entry cites its HIPAA rule, none that is not relevant maps to a check", () => {
    expect(mapping.entries.length).toBeGreaterThan(40);
    for (const e of mapping.entries) {
      if (e.relevant) expect(e.hipaa?.length, e.lynis).toBeGreaterThan(0);
      else expect(e.scanner, e.lynis).toEqual([]);
    }
  });

  it("maps onto check ids the scanner's phases raise; ids a branch not merged yet adds say which branch", () => {
    // The catalogue read from the sources holds the checks this scanner has (a sample of each kind).
    for (const id of ["access_control.weak_password_policy", "ports.redis_without_password", "eol.end_of_life_os"])
      expect(known.has(id), id).toBe(true);
    const missing = mapping.entries.flatMap((e) => e.scanner.filter((id) => !known.has(id)).map((id) => ({ e, id })));
    for (const { e, id } of missing) expect(e.pending, `${e.lynis} → ${id} is not a scanner check`).toBeDefined();
    // Once that branch is merged, its ids exist and the marker goes: an entry marked pending whose ids all exist
    // is reported here so the marker does not outlive its reason.
    const stale = mapping.entries.filter((e) => e.pending && e.scanner.every((id) => known.has(id)));
    expect(stale.map((e) => e.lynis)).toEqual([]);
  });

  it("has an entry for every item of the captured Debian 12 report", () => {
    const report = parseLynisReport(fixture("debian12-quick-report.dat"));
    expect(report.items.filter((i) => entryFor(mapping, i) === null)).toEqual([]);
  });

  it("refuses what is not a mapping, with the reason", () => {
    const bad = (entries: unknown[]) => () => parseLynisMapping({ lynis_version: "3.0.8", about: "x", entries });
    const base = { lynis: "AUTH-9262", title: "Password strength", why: "Because it matters." };
    expect(bad([{ ...base, relevant: true }])).toThrow(/cites its rule/);
    expect(bad([{ ...base, relevant: false, scanner: ["access_control.weak_password_policy"] }])).toThrow(
      /maps to nothing/,
    );
    expect(bad([{ ...base, relevant: true, hipaa: ["164.312(d)"], scanner: ["nophase.check"] }])).toThrow(/phase id/);
    expect(bad([{ ...base, relevant: true, hipaa: ["999.1"] }])).toThrow();
    expect(
      bad([
        { ...base, relevant: false },
        { ...base, relevant: false },
      ]),
    ).toThrow(/text patterns/);
  });

  it("splits one test's items by text pattern, catch-all last", () => {
    const m = parseLynisMapping({
      lynis_version: "3.0.8",
      about: "x",
      entries: [
        { lynis: "FILE-6310", text: "/tmp", title: "tmp apart", relevant: false, why: "Only the /tmp one." },
        { lynis: "FILE-6310", title: "others apart", relevant: false, why: "All the others." },
      ],
    });
    expect(entryFor(m, { test: "FILE-6310", text: "place /TMP on a partition" })?.title).toBe("tmp apart");
    expect(entryFor(m, { test: "FILE-6310", text: "place /var on a partition" })?.title).toBe("others apart");
    expect(entryFor(m, { test: "AUTH-9262", text: "x" })).toBeNull();
  });
});
