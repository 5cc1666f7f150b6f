import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareWithLynis, type ScanPhaseView } from "./agreement.js";
import { formatAgreement } from "./format.js";
import mappingJson from "./lynis-hipaa-map.json" with { type: "json" };
import { parseLynisMapping } from "./mapping.js";
import { parseLynisReport } from "./report.js";

const report = parseLynisReport(
  readFileSync(join(import.meta.dirname, "fixtures", "debian12-quick-report.dat"), "utf8"),
);
const mapping = parseLynisMapping(mappingJson);

const f = (check_id: string, subject?: string) => ({
  id: subject ? `${check_id}:${subject}` : check_id,
  check_id,
  severity: "low",
  title: check_id,
});
const phase = (id: string, findings: ScanPhaseView["findings"], extra: Partial<ScanPhaseView> = {}): ScanPhaseView => ({
  id,
  status: "ok",
  findings,
  notAssessed: [],
  ...extra,
});

/** The scan of the same machine, as this branch's scanner reported it (host checks of i16-host-checks not merged). */
const scan: ScanPhaseView[] = [
  phase("ports", [f("ports.redis_without_password", "/etc/redis/redis.conf")]),
  phase("disk_encryption", [f("disk_encryption.unencrypted_volume", "/")]),
  phase("access_control", [
    f("access_control.weak_password_policy"),
    f("access_control.no_account_lockout"),
    f("access_control.permissive_umask"),
    f("access_control.no_log_daemon"),
    f("access_control.auditd_not_running"),
    f("access_control.clock_not_synchronised"),
    f("access_control.home_directories_open"),
    f("access_control.sensitive_path_permissions"),
  ]),
  phase("segmentation", [], { notAssessed: ["host_firewall"] }),
  phase("patches", [f("patches.pending_security_updates"), f("patches.automatic_updates_off")]),
  phase("asset_inventory", []),
];

describe("agreement between Lynis and the scanner", () => {
  const t = compareWithLynis(report, mapping, scan);
  const verdictOf = (test: string) => t.rows.filter((r) => r.item.test === test).map((r) => r.verdict);

  it("counts the 21 HIPAA-relevant items of the captured report and the share matched", () => {
    expect(t.counts).toEqual({
      relevant: 21,
      agree: 14,
      disagree: 5,
      scannerMisses: 2,
      inapplicable: 0,
      scannerExtra: 2,
      notRelevant: 29,
      unmapped: 0,
    });
    expect(t.matchedShare).toBeCloseTo(14 / 21);
  });

  it("agree: a mapped check raised; one Lynis item per report line", () => {
    expect(verdictOf("AUTH-9262")).toEqual(["agree"]);
    expect(verdictOf("PKGS-7392")).toEqual(["agree", "agree"]);
    expect(verdictOf("LOGG-2130")).toEqual(["agree"]);
    expect(t.rows.find((r) => r.item.test === "DBS-1884")?.scanner).toEqual({
      state: "raised",
      findings: ["ports.redis_without_password:/etc/redis/redis.conf"],
    });
  });

  it("a check that ran and raised nothing disagrees, unless Lynis only asked for a tool the scanner replaces", () => {
    // USB and FireWire storage: the scanner would have assessed them (asset_inventory ok) and raised nothing.
    expect(verdictOf("USB-1000")).toEqual(["disagree"]);
    expect(verdictOf("STRG-1846")).toEqual(["disagree"]);
    // needrestart: the scanner reads the mapped libraries itself, so having assessed it is agreement.
    expect(verdictOf("DEB-0831")).toEqual(["agree"]);
  });

  it("a suggestion the scan's own facts show moot on this machine is inapplicable, outside the matched share", () => {
    const driver = (kernel_driver: string, module_loaded = false) => ({ kernel_driver, module_loaded });
    const withMedia = (usb: object, firewireCore: object) =>
      scan.map((p) =>
        p.id === "asset_inventory"
          ? { ...p, facts: { usb_storage: usb, firewire_storage: { drivers: { firewire_core: firewireCore } } } }
          : p,
      );
    // A kernel built without USB or FireWire (the CI VM's): nothing could be mounted, so Lynis's advice is moot.
    const vm = compareWithLynis(report, mapping, withMedia(driver("absent"), driver("absent")));
    expect(vm.rows.filter((r) => r.verdict === "inapplicable").map((r) => r.item.test)).toEqual([
      "USB-1000",
      "STRG-1846",
    ]);
    expect(vm.counts.inapplicable).toBe(2);
    expect(vm.matchedShare).toBeCloseTo(t.counts.agree / (t.counts.relevant - 2));
    expect(vm.matchedShareAll).toBeCloseTo(t.counts.agree / t.counts.relevant);
    expect(formatAgreement(vm)).toContain("| USB-1000 | suggestion |");
    expect(formatAgreement(vm)).toContain(
      "inapplicable here | assessed, nothing raised: the running kernel has no USB",
    );
    // A distribution kernel with the drivers as modules, or a driver loaded now: the advice applies, and silence
    // from the scanner is a disagreement.
    const debian = compareWithLynis(report, mapping, withMedia(driver("module"), driver("module")));
    expect(
      debian.rows.filter((r) => r.item.test === "USB-1000" || r.item.test === "STRG-1846").map((r) => r.verdict),
    ).toEqual(["disagree", "disagree"]);
    const loaded = compareWithLynis(report, mapping, withMedia(driver("absent", true), driver("absent")));
    expect(loaded.rows.find((r) => r.item.test === "USB-1000")?.verdict).toBe("disagree");
    // Raised anyway: agreement wins over inapplicability.
    const raised = compareWithLynis(
      report,
      mapping,
      withMedia(driver("absent"), driver("absent")).map((p) =>
        p.id === "asset_inventory" ? { ...p, findings: [f("asset_inventory.usb_storage_allowed")] } : p,
      ),
    );
    expect(raised.rows.find((r) => r.item.test === "USB-1000")?.verdict).toBe("agree");
  });

  it("no check, a check not in this build, or a part not assessed is a miss, with the reason", () => {
    expect(t.rows.find((r) => r.item.test === "PKGS-7390")?.scanner).toEqual({
      state: "no_check",
      reason: "the scanner has no check for this",
    });
    const known = new Set(["access_control.weak_password_policy"]);
    const pending = parseLynisMapping({
      ...mappingJson,
      entries: mappingJson.entries.map((e) => (e.lynis === "USB-1000" ? { ...e, pending: "a-branch" } : e)),
    });
    const narrow = compareWithLynis(report, pending, scan, { knownChecks: known });
    expect(narrow.rows.find((r) => r.item.test === "USB-1000")).toMatchObject({
      verdict: "scanner_misses",
      scanner: {
        state: "no_check",
        reason: "not in this build (added by a-branch): asset_inventory.usb_storage_allowed",
      },
    });
    const unread = compareWithLynis(report, mapping, [
      ...scan.filter((p) => p.id !== "access_control"),
      phase("access_control", [], { notAssessed: ["audit_processes"] }),
    ]);
    expect(unread.rows.find((r) => r.item.test === "ACCT-9628")).toMatchObject({
      verdict: "scanner_misses",
      scanner: { state: "not_assessed", reason: "access_control: audit_processes not assessed" },
    });
    const skipped = compareWithLynis(report, mapping, [
      ...scan.filter((p) => p.id !== "patches"),
      phase("patches", [], { status: "skipped" }),
    ]);
    expect(skipped.rows.find((r) => r.item.test === "PKGS-7420")?.scanner).toEqual({
      state: "not_assessed",
      reason: "phase patches skipped",
    });
  });

  it("scanner extra: findings no agreeing Lynis item accounts for, with what Lynis did about them", () => {
    expect(t.extra.map((e) => [e.finding.id, e.lynis])).toEqual([
      ["disk_encryption.unencrypted_volume:/", "no Lynis test in the mapping"],
      ["access_control.clock_not_synchronised", "Lynis ran TIME-3104 and raised nothing"],
    ]);
  });

  it("prints the table: counts, one row per relevant item, extras, the tests judged not relevant", () => {
    const text = formatAgreement(t);
    expect(text).toMatch(
      /^HIPAA-relevant Lynis items: 21 \(0 inapplicable on this machine\); agree 14, scanner misses 2, disagree 5; matched 14\/21 applicable = 67 %/,
    );
    expect(text).toContain("| AUTH-9262 | suggestion | Install a PAM module for password strength testing");
    expect(text).toContain("| disk_encryption.unencrypted_volume:/ | low | no Lynis test in the mapping |");
    expect(text).toMatch(/Not HIPAA-relevant \(reasons in the mapping\): LYNIS, DEB-0280/);
  });
});
