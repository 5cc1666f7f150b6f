import { PHASE_IDS, type PhaseResult, PhaseResultSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import type { FakeHost } from "../host/fake-host.js";
import { runPhases } from "../runner/run-phases.js";
import { buildScanScope } from "../runner/scope.js";
import { PHASE_REGISTRY } from "./registry.js";
import { darwinPersona, linuxEhrServerPersona, linuxPersona, win32Persona } from "./test-support/personas.js";

const personas: [string, () => FakeHost][] = [
  ["linux", linuxPersona],
  ["darwin", darwinPersona],
  ["win32", win32Persona],
];

describe("phase registry", () => {
  it("lists the 12 protocol phases in protocol order", () => {
    expect(PHASE_REGISTRY.map((p) => p.id)).toEqual(PHASE_IDS);
  });
});

describe.each(personas)("every phase on the %s persona", (platform, persona) => {
  let results: PhaseResult[];
  const run = async () => {
    if (results) return results;
    const host = persona();
    const scope = await buildScanScope(undefined, {
      resolve: host.net.resolve,
      interfaces: host.sysinfo.networkInterfaces,
    });
    results = await runPhases({ host, phases: PHASE_REGISTRY, scope, options: { ephiPaths: [] }, timeoutMs: 20_000 });
    return results;
  };

  it("returns one schema-valid result per phase, in protocol order, none failed", async () => {
    const r = await run();
    expect(r.map((x) => x.id)).toEqual(PHASE_IDS);
    for (const result of r) {
      expect(PhaseResultSchema.safeParse(result).success).toBe(true);
      expect([result.id, result.status, result.error?.code]).not.toContainEqual("failed");
      if (result.status !== "ok")
        expect(result.reason, `${result.id} must say why it is ${result.status}`).toBeTruthy();
    }
  });

  it("marks unsupported exactly the phases without an implementation for the platform", async () => {
    const r = await run();
    const unsupported = r.filter((x) => x.status === "unsupported").map((x) => x.id);
    const expected = PHASE_REGISTRY.filter((p) => !p.platforms.includes(platform as never)).map((p) => p.id);
    expect(unsupported).toEqual(expected);
  });

  it("every finding cites HIPAA controls, is internal, and has a stable id under its phase", async () => {
    const r = await run();
    for (const result of r) {
      for (const f of result.findings) {
        expect(f.source).toBe("internal");
        expect(f.controls.length).toBeGreaterThan(0);
        expect(f.check_id.startsWith(`${result.id}.`)).toBe(true);
      }
    }
  });

  it("gives every finding an id of its own within the scan", async () => {
    const ids = (await run()).flatMap((x) => x.findings.map((f) => f.id));
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated).toEqual([]);
  });

  it("reads listeners from the socket table and flags only risky services bound beyond loopback", async () => {
    const ports = (await run()).find((x) => x.id === "ports")!;
    expect(ports.status).toBe("ok");
    expect(ports.facts.listener_source).toBe(platform === "linux" ? "proc_net_tcp" : "netstat");
    const expected: Record<string, string[]> = {
      // Redis, PostgreSQL and MySQL on 127.0.0.1/::1 only: no exposure finding; Redis without a password is one
      // (low: only this machine reaches it), PostgreSQL's trust on 127.0.0.1 is not.
      linux: ["ports.redis_without_password:/etc/redis/redis.conf"],
      darwin: ["ports.risky_service:127.0.0.1:5900"],
      win32: [
        "ports.risky_service:127.0.0.1:139",
        "ports.risky_service:127.0.0.1:445",
        "ports.risky_service:127.0.0.1:1433",
        "ports.risky_service:127.0.0.1:3389",
      ],
    };
    expect(ports.findings.map((f) => f.id)).toEqual(expected[platform]);
    for (const f of ports.findings.filter((x) => x.check_id === "ports.risky_service"))
      expect(f.evidence).toMatchObject({ exposure: "network", source: "socket_table" });
    // The Windows persona's firewall is off on every profile: the segment reaches them (netsh's summary: medium).
    if (platform === "win32")
      for (const f of ports.findings)
        expect(f.evidence).toMatchObject({ reachable_from_segment: true, confidence: "medium" });
  });
});

/** Runs every phase on a persona with no targets (loopback only) and returns the result of one phase. */
async function phaseOn(host: FakeHost, id: PhaseResult["id"]): Promise<PhaseResult> {
  const scope = await buildScanScope(undefined, {
    resolve: host.net.resolve,
    interfaces: host.sysinfo.networkInterfaces,
  });
  const r = await runPhases({ host, phases: PHASE_REGISTRY, scope, options: { ephiPaths: [] } });
  return r.find((x) => x.id === id)!;
}

describe("platform specifics", () => {
  it("Windows: the neighbour cache comes from arp -a, without multicast entries", async () => {
    const discovery = await phaseOn(win32Persona(), "discovery");
    expect(discovery.facts.neighbours).toEqual([
      { address: "172.16.5.5", mac: "00:50:56:b9:08:26", iface: "172.16.5.25" },
      { address: "172.16.5.130", mac: "00:50:56:b9:f0:e1", iface: "172.16.5.25" },
      { address: "172.16.5.240", mac: "00:50:56:b9:9d:66", iface: "172.16.5.25" },
    ]);
  });

  it("Windows with every firewall profile off: one host-firewall finding naming the profiles", async () => {
    const segmentation = await phaseOn(win32Persona(), "segmentation");
    expect(segmentation.facts).toMatchObject({ firewall: "inactive", firewall_tool: "windows_firewall" });
    expect(segmentation.findings).toHaveLength(1);
    expect(segmentation.findings[0]).toMatchObject({
      id: "segmentation.host_firewall_off",
      evidence: {
        profiles_off: ["Domain", "Private", "Public"],
        // From the socket table: what the firewall would guard, bound beyond loopback.
        sensitive_services_exposed: [
          "netbios-ssn (TCP 139)",
          "smb (TCP 445)",
          "Microsoft SQL Server (TCP 1433)",
          "rdp (TCP 3389)",
        ],
      },
    });
  });

  it("macOS with the Application Firewall off: a host-firewall finding with the macOS remediation", async () => {
    const segmentation = await phaseOn(darwinPersona(), "segmentation");
    expect(segmentation.facts).toMatchObject({ firewall: "inactive", firewall_tool: "macos_application_firewall" });
    expect(segmentation.findings[0]?.remediation).toMatch(/System Settings/);
  });

  it("installed software is listed on macOS (system_profiler) and Windows (uninstall registry)", async () => {
    const mac = await phaseOn(darwinPersona(), "asset_inventory");
    expect(mac.facts.software_count).toBe(12);
    expect(mac.facts.software).toContainEqual({ name: "Safari", version: "17.4.1" });
    const win = await phaseOn(win32Persona(), "asset_inventory");
    expect(win.facts.software).toEqual([{ name: "Check MK Agent 2.1", version: "2.1.0.50010" }]);
    expect(win.facts.software_unavailable).toBeUndefined();
  });

  it("macOS patches come from Software Update's record: pending security updates, stale check, settings off", async () => {
    const patches = await phaseOn(darwinPersona(), "patches");
    expect(patches.status).toBe("ok");
    expect(patches.facts).toMatchObject({ manager: "softwareupdate", pending: 3, security: 2 });
    expect(patches.findings.map((f) => [f.id, f.severity])).toEqual([
      ["patches.pending_security_updates", "high"],
      ["patches.automatic_updates_off", "medium"],
      ["patches.stale_update_check", "medium"],
    ]);
  });

  it("Windows patches: installed updates from wmic qfe, the WSUS policy from the registry", async () => {
    const patches = await phaseOn(win32Persona(), "patches");
    expect(patches.facts).toMatchObject({
      installed_updates: 6,
      newest_update: { id: "KB5053606", installed_on: "2025-03-24" },
      automatic_updates: { policy: true, disabled: false, au_options: 3, wsus: true },
      pending: null,
    });
    expect(patches.findings.map((f) => [f.id, f.severity])).toEqual([
      ["patches.no_recent_updates", "high"],
      ["patches.automatic_updates_off", "low"],
    ]);
  });

  it("Windows malware protection: Bitdefender registered and on protects the PC; nothing is raised", async () => {
    const patches = await phaseOn(win32Persona(), "patches");
    expect(patches.facts.malware_protection).toMatchObject({
      protected: true,
      products: [
        { product: "bitdefender_antivirus", running: true, signatures_current: true, source: "security_center" },
        { product: "windows_defender", running: true, signature_age_days: 0, source: "Get-MpComputerStatus" },
      ],
    });
    expect(patches.findings.filter((f) => f.check_id.includes("malware"))).toEqual([]);
  });

  it("Windows MFA: an unjoined PC whose user has no Hello for Business key gets the no-MFA finding", async () => {
    const mfa = await phaseOn(win32Persona(), "mfa");
    expect(mfa.facts).toMatchObject({ entra_joined: false, hello_for_business_key: false });
    expect(mfa.findings.map((f) => f.id)).toEqual(["mfa.no_mfa_for_logins"]);
  });

  it("macOS MFA: smart card enforcement unset in managed and local preferences", async () => {
    const mfa = await phaseOn(darwinPersona(), "mfa");
    expect(mfa).toMatchObject({ status: "ok", facts: { smart_card_enforced: false } });
    expect(mfa.findings.map((f) => f.id)).toEqual(["mfa.no_mfa_for_logins"]);
  });

  it("macOS access control: admins less root, guest off, the stock 4-character policy, screen lock off, no OpenBSM", async () => {
    const access = await phaseOn(darwinPersona(), "access_control");
    expect(access.facts).toMatchObject({
      admins: ["williamj"],
      guest_enabled: false,
      automatic_login: false,
      password_min_length: 4,
      lockout_after_failed_attempts: null,
      screen_lock: { enabled: false, delay_seconds: null },
    });
    expect(access.findings.map((f) => [f.id, f.severity, f.controls])).toEqual([
      ["access_control.weak_password_policy", "medium", ["164.312(a)(2)(i)"]],
      ["access_control.no_account_lockout", "low", ["164.312(a)(2)(i)"]],
      ["access_control.screen_lock_off", "medium", ["164.312(a)(2)(iii)"]],
      // macOS 14 ships without /etc/security/audit_control.
      ["access_control.openbsm_not_configured", "low", ["164.312(b)"]],
    ]);
    // Not run as root: systemsetup refuses to say whether network time is on.
    expect(access.facts.not_assessed).toMatchObject({ audit_time_sync: expect.stringMatching(/administrator/) });
  });

  it("Linux audit controls (164.312(b)): a volatile journal without syslog and no auditd; the clock is synchronised", async () => {
    const access = await phaseOn(linuxPersona(), "access_control");
    expect(access.facts.audit).toEqual({
      journald_storage: "auto",
      journal_persistent: false,
      journald_running: true,
      syslog_daemon: null,
      auditd: { installed: false, running: false },
      time_sync: { source: "timedatectl", ntp: true, synchronised: true },
    });
    const audit = access.findings.filter((f) => f.controls.includes("164.312(b)"));
    expect(audit.map((f) => [f.id, f.severity])).toEqual([
      ["access_control.logs_not_persistent", "medium"],
      ["access_control.auditd_not_running", "low"],
    ]);
  });

  it("Linux login policy: Debian's stock PAM (pam_unix, 6 characters, no lockout), no TMOUT, umask 022", async () => {
    const access = await phaseOn(linuxPersona(), "access_control");
    expect(access.facts).toMatchObject({
      password_min_length: 6,
      password_module: "pam_unix.so",
      lockout_after_failed_attempts: false,
      shell_timeout_seconds: null,
      default_umask: "022",
    });
    expect(
      access.findings.filter((f) => !f.controls.includes("164.312(b)")).map((f) => [f.id, f.severity, f.controls]),
    ).toEqual([
      ["access_control.weak_password_policy", "medium", ["164.312(a)(2)(i)"]],
      ["access_control.no_account_lockout", "low", ["164.312(a)(2)(i)"]],
      ["access_control.no_session_timeout", "low", ["164.312(a)(2)(iii)"]],
      ["access_control.permissive_umask", "low", ["164.312(a)(1)"]],
      // No AIDE, Tripwire, Samhain, osquery or Wazuh on the persona.
      ["access_control.no_file_integrity_monitoring", "low", ["164.312(c)(1)"]],
    ]);
  });

  it("Windows access control: net accounts with no minimum length and no lockout; the clock on its CMOS", async () => {
    const access = await phaseOn(win32Persona(), "access_control");
    expect(access.facts).toMatchObject({
      admins: ["Administrator", "user1"],
      password_min_length: 0,
      time_sync: { source: "w32tm", time_source: "Local CMOS Clock", synchronised: false },
      // Its audit policy (a capture tuned for logging) records every required subcategory.
      audit_policy_not_recorded: [],
    });
    expect(access.findings.map((f) => f.id)).toEqual([
      "access_control.weak_password_policy",
      "access_control.no_account_lockout",
      "access_control.event_log_too_small",
      "access_control.clock_not_synchronised",
    ]);
    expect(access.facts.event_logs).toEqual([
      { name: "Security", enabled: true, max_size_kb: 20_480, when_full: "overwrite_oldest" },
      { name: "Application", enabled: true, max_size_kb: 2_048, when_full: "overwrite_oldest" },
    ]);
    expect(access.facts.not_assessed).toMatchObject({ event_logs: expect.stringMatching(/^System: /) });
  });

  it("macOS backups: Time Machine to a network destination whose last backup is years old", async () => {
    const backups = await phaseOn(darwinPersona(), "backups");
    expect(backups.facts).toMatchObject({
      tools: [{ tool: "time_machine", configured: true, destinations: ["network_share"] }],
      last_backup: { source: "time_machine", at: new Date(2019, 6, 29, 10, 2, 31).toISOString() },
      readiness: { backup: { state: "stale" }, restore: null, restore_records_kept_by: [] },
    });
    expect(backups.findings.map((f) => [f.id, f.severity])).toEqual([["backups.backup_stale", "high"]]);
  });

  it("Windows backups: a wbadmin version from the previous evening is recent enough", async () => {
    const backups = await phaseOn(win32Persona(), "backups");
    expect(backups.facts).toMatchObject({
      tools: [{ tool: "windows_server_backup", configured: true, backups_listed: 1, destinations: ["local_disk"] }],
      last_backup: { at: "2026-06-30T19:26:00.000Z", age_hours: 17 },
    });
    expect(backups.findings).toEqual([]);
  });

  it("Linux front desk with PostgreSQL and no backup tool: no backup of an ePHI-bearing machine caps the grade", async () => {
    const backups = await phaseOn(linuxPersona(), "backups");
    expect(backups.facts).toMatchObject({
      ephi_bearing: true,
      readiness: { ephi_bearing: true, backup: { state: "none" } },
    });
    expect(backups.findings.map((f) => [f.id, f.severity, f.grade_cap])).toEqual([
      ["backups.no_backup_agent", "high", "ephi_device_without_backup"],
    ]);
  });

  it("the EHR server: Veeam's nightly backup and its November restore test; audit controls all in place", async () => {
    const host = linuxEhrServerPersona();
    const backups = await phaseOn(host, "backups");
    expect(backups.findings).toEqual([]);
    expect(backups.facts.readiness).toEqual({
      ephi_bearing: true,
      backup: {
        state: "recent",
        tool: "veeam",
        at: new Date(2026, 0, 14, 22, 0).toISOString(),
        age_hours: expect.any(Number),
      },
      restore: {
        tool: "veeam",
        at: new Date(2025, 10, 20, 10, 5).toISOString(),
        duration_minutes: 102,
        succeeded: true,
      },
      restore_records_kept_by: ["veeam"],
    });
    const access = await phaseOn(linuxEhrServerPersona(), "access_control");
    expect(access.facts.audit).toMatchObject({
      journal_persistent: true,
      syslog_daemon: "rsyslogd",
      auditd: { installed: true, running: true },
    });
    expect(access.findings.filter((f) => f.controls.includes("164.312(b)"))).toEqual([]);
  });

  it("Windows without BitLocker: every fixed volume is an unencrypted-volume finding", async () => {
    const disk = await phaseOn(win32Persona(), "disk_encryption");
    expect(disk.findings.map((f) => f.id)).toEqual([
      "disk_encryption.unencrypted_volume:c:",
      "disk_encryption.unencrypted_volume:j:",
      "disk_encryption.unencrypted_volume:k:",
    ]);
  });

  it("macOS with FileVault on: no disk finding", async () => {
    const host = darwinPersona();
    const scope = await buildScanScope(undefined, {
      resolve: host.net.resolve,
      interfaces: host.sysinfo.networkInterfaces,
    });
    const r = await runPhases({ host, phases: PHASE_REGISTRY, scope, options: { ephiPaths: [] } });
    expect(r.find((x) => x.id === "disk_encryption")).toMatchObject({ status: "ok", findings: [] });
  });

  it("a host missing every tool degrades to skipped or unsupported, never failed", async () => {
    const { createFakeHost } = await import("../host/fake-host.js");
    const host = createFakeHost({ platform: "linux", isPrivileged: false });
    const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
    const r = await runPhases({ host, phases: PHASE_REGISTRY, scope, options: { ephiPaths: [] } });
    expect(r.filter((x) => x.status === "failed")).toEqual([]);
    // A missing tool is decided by the runner, as for every phase: unsupported here, with the reader's words.
    expect(r.find((x) => x.id === "disk_encryption")).toMatchObject({
      status: "unsupported",
      reason: "lsblk is not available on this machine",
      facts: { unavailable: "not_found" },
    });
  });

  it.each([
    ["darwin", "defaults is not available on this machine", "dscl is not available on this machine"],
    [
      "win32",
      "wmic is not available on this machine; reg is not available on this machine",
      "net is not available on this machine",
    ],
  ] as const)(
    "a bare %s host degrades every new reader with a reason, never failed",
    async (platform, patches, access) => {
      const { createFakeHost } = await import("../host/fake-host.js");
      const host = createFakeHost({ platform, isPrivileged: false });
      const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
      const r = await runPhases({ host, phases: PHASE_REGISTRY, scope, options: { ephiPaths: [] } });
      const byId = new Map(r.map((x) => [x.id, x]));
      expect(r.filter((x) => x.status === "failed")).toEqual([]);
      expect(byId.get("patches")).toMatchObject({ status: "unsupported", reason: patches });
      expect(byId.get("access_control")).toMatchObject({ status: "unsupported", reason: access });
      expect(byId.get("mfa")?.status).toBe("unsupported");
      // Neither the firewall's state nor targets: nothing about the segment was assessed, so it does not read "ok".
      expect(byId.get("segmentation")).toMatchObject({
        status: "skipped",
        reason: expect.stringMatching(
          /^the host firewall's state could not be read \(.+\) and no --targets were given/,
        ),
        facts: { firewall: "unknown" },
      });
      expect(byId.get("asset_inventory")?.facts.software_unavailable).toMatch(/not available on this machine/);
      expect(byId.get("backups")).toMatchObject({ status: "ok", findings: [] });
      expect(Object.values(byId.get("backups")?.facts.tools_not_read ?? {})).toEqual([
        expect.stringMatching(/not available on this machine/),
      ]);
      // The check it could not make is named, not passed.
      expect(byId.get("backups")?.facts.not_assessed).toEqual({
        last_backup: expect.stringMatching(/^could not be read: .*not available on this machine/),
      });

      // With targets, reachability was tested: the phase completes and names the firewall as not assessed.
      const targets = { mode: "targets" as const, hosts: ["127.0.0.1"], given: ["127.0.0.1"] };
      const [, segmentation] = await runPhases({
        host,
        phases: PHASE_REGISTRY.filter((p) => p.id === "ports" || p.id === "segmentation"),
        scope: targets,
        options: { ephiPaths: [] },
      });
      expect(segmentation).toMatchObject({
        id: "segmentation",
        status: "ok",
        facts: { not_assessed: { host_firewall: expect.stringMatching(/^its state could not be read/) } },
      });
    },
  );

  it("`auto` scope from the fake host's interfaces probes only that subnet", async () => {
    const host = linuxPersona();
    const scope = await buildScanScope("auto", {
      resolve: host.net.resolve,
      interfaces: host.sysinfo.networkInterfaces,
    });
    expect(scope.given).toEqual(["192.168.50.0/24"]);
    await runPhases({
      host,
      phases: PHASE_REGISTRY.filter((p) => p.id === "discovery"),
      scope,
      options: { ephiPaths: [] },
    });
    expect(host.calls.connect.every((c) => c.startsWith("192.168.50."))).toBe(true);
  });
});
