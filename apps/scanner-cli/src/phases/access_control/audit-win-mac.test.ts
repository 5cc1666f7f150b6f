import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFakeHost, type FakeCommand, type FakeFile } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { accessControlPhase } from "./index.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
const AUDIT_IDS = [
  "access_control.event_log_too_small",
  "access_control.openbsm_not_configured",
  "access_control.audit_policy_gaps",
  "access_control.audit_retention_short",
  "access_control.clock_not_synchronised",
];
const auditFindings = (r: { findings: { id: string; severity: string }[] }) =>
  r.findings.filter((f) => AUDIT_IDS.includes(f.id)).map((f) => [f.id, f.severity]);

async function accessControlOn(host: ReturnType<typeof createFakeHost>) {
  const [r] = await runPhases({ host, phases: [accessControlPhase], scope, options: { ephiPaths: [] } });
  return r!;
}

const security = fixture("win32-wevtutil-gl-security.txt");
const application = fixture("win32-wevtutil-gl-application.txt");
/** No System capture was found; the Security one renamed, as wevtutil prints each log the same way. */
const system = security.replaceAll("Security", "System");
const atBaseline = (text: string, bytes: number) => text.replace(/maxSize: \d+/, `maxSize: ${bytes}`);

function windowsWith(logs: Record<string, string | FakeCommand>) {
  return createFakeHost({
    platform: "win32",
    commands: {
      "net localgroup Administrators": fixture("win32-net-localgroup-administrators.txt"),
      "net accounts": fixture("win32-net-accounts.txt"),
      "w32tm /query /status": fixture("win32-w32tm-query-status-synced.txt"),
      "auditpol /get /category:*": fixture("win32-auditpol-get-category-all.txt"),
      ...Object.fromEntries(Object.entries(logs).map(([name, answer]) => [`wevtutil gl ${name}`, answer])),
    },
  });
}

describe("Windows event logs in the access_control phase", () => {
  it("the stock 20 MB Security log and a 2 MB Application log: one medium finding naming both", async () => {
    const r = await accessControlOn(
      windowsWith({ Security: security, Application: application, System: atBaseline(system, 33_554_432) }),
    );
    expect(auditFindings(r)).toEqual([["access_control.event_log_too_small", "medium"]]);
    const f = r.findings.find((x) => x.id === "access_control.event_log_too_small")!;
    expect((f.evidence.logs as { log: string }[]).map((l) => l.log)).toEqual(["Security", "Application"]);
    expect(r.facts.event_logs).toEqual([
      { name: "Security", enabled: true, max_size_kb: 20_480, when_full: "overwrite_oldest" },
      { name: "Application", enabled: true, max_size_kb: 2_048, when_full: "overwrite_oldest" },
      { name: "System", enabled: true, max_size_kb: 32_768, when_full: "overwrite_oldest" },
    ]);
    expect(r.facts.not_assessed).toBeUndefined();
  });

  it("logs at the baseline: nothing raised", async () => {
    const r = await accessControlOn(
      windowsWith({
        Security: atBaseline(security, 201_326_592),
        Application: atBaseline(application, 33_554_432),
        System: atBaseline(system, 33_554_432),
      }),
    );
    expect(auditFindings(r)).toEqual([]);
  });

  it("a log wevtutil would not show, or showed in another language, is not assessed and raises nothing", async () => {
    const r = await accessControlOn(
      windowsWith({
        Security: { stderr: "Access is denied.", exitCode: 5 },
        Application: application.replace("maxSize:", "Größe:"),
        System: atBaseline(system, 33_554_432),
      }),
    );
    expect(auditFindings(r)).toEqual([]);
    expect(r.facts.not_assessed).toMatchObject({
      event_logs: expect.stringMatching(
        /^Security: wevtutil printed no log configuration \(exit code 5.*; Application: /,
      ),
    });
    expect(r.facts.event_logs).toEqual([
      { name: "System", enabled: true, max_size_kb: 32_768, when_full: "overwrite_oldest" },
    ]);
  });
});

function macWith(auditControl: string | FakeFile | null, networkTime: string | FakeCommand) {
  return createFakeHost({
    platform: "darwin",
    isPrivileged: true,
    commands: {
      "dscl . -read /Groups/admin GroupMembership": fixture("darwin-dscl-admin-groupmembership.txt"),
      "systemsetup -getusingnetworktime": networkTime,
    },
    files: auditControl === null ? {} : { "/etc/security/audit_control": auditControl },
  });
}
const stock = fixture("darwin-etc-security-audit_control.txt");
const networkOn = fixture("darwin-systemsetup-getusingnetworktime-on.txt");

describe("macOS audit controls in the access_control phase", () => {
  it("Apple's stock audit_control (10 MB trail) and network time off: retention and clock findings", async () => {
    const r = await accessControlOn(macWith(stock, networkOn.replace("On", "Off")));
    expect(auditFindings(r)).toEqual([
      ["access_control.audit_retention_short", "low"],
      ["access_control.clock_not_synchronised", "medium"],
    ]);
    expect(r.facts.audit).toMatchObject({
      unified_logging: expect.stringMatching(/^on by design/),
      openbsm: { configured: true, flags: ["lo", "aa"], expire_after: "10M", retention_short: true },
      time_sync: { source: "systemsetup", network_time: false },
    });
    // Whether auditd is enabled needs root to ask launchd: named, never guessed.
    expect(r.facts.not_assessed).toMatchObject({ audit_daemon: expect.stringMatching(/not read/) });
  });

  it("the CIS retention and network time on: nothing raised", async () => {
    const r = await accessControlOn(macWith(stock.replace("expire-after:10M", "expire-after:60d OR 1G"), networkOn));
    expect(auditFindings(r)).toEqual([]);
  });

  it("macOS 14 as shipped (no audit_control): OpenBSM not configured", async () => {
    const r = await accessControlOn(macWith(null, networkOn));
    expect(auditFindings(r)).toEqual([["access_control.openbsm_not_configured", "low"]]);
    expect(r.facts.audit).toMatchObject({ openbsm: { configured: false } });
  });

  it("audit_control unreadable and systemsetup refusing without admin: both not assessed, nothing raised", async () => {
    const r = await accessControlOn(
      macWith({ content: stock, readable: false }, fixture("darwin-systemsetup-getusingnetworktime-denied.txt")),
    );
    expect(auditFindings(r)).toEqual([]);
    expect(r.facts.not_assessed).toMatchObject({
      audit_openbsm: expect.stringMatching(/exists but could not be read/),
      audit_time_sync: "systemsetup needs administrator privileges (it refused to report network time)",
    });
    expect(r.facts.audit).toMatchObject({ openbsm: null, time_sync: null });
  });
});
