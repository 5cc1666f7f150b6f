import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { isUnavailable } from "../shared/unavailable.js";
import { darwinAccessControl } from "./darwin.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

function macWith(loginwindow: string, screenLock: string) {
  return createFakeHost({
    platform: "darwin",
    commands: {
      "dscl . -read /Groups/admin GroupMembership": fixture("darwin-dscl-admin-groupmembership.txt"),
      "defaults read /Library/Preferences/com.apple.loginwindow": loginwindow,
      "pwpolicy getaccountpolicies": fixture("darwin-pwpolicy-getaccountpolicies.txt"),
      "sysadminctl -screenLock status": { stderr: fixture(screenLock) },
    },
  });
}

describe("macOS access control", () => {
  it("flags the guest account and automatic login without reporting the account name", async () => {
    // The captured loginwindow domain with the guest user switched on and automatic login added.
    const loginwindow = fixture("darwin-defaults-loginwindow.txt")
      .replace("GuestEnabled = 0;", "GuestEnabled = 1;")
      .replace("    Hide500Users = 1;", '    Hide500Users = 1;\n    autoLoginUser = "front.desk";');
    const state = await darwinAccessControl(
      macWith(loginwindow, "darwin-sysadminctl-screenlock-immediate.txt"),
      new AbortController().signal,
    );
    if (isUnavailable(state)) throw new Error(state.message);
    expect(state.findings.map((f) => f.id)).toEqual([
      "access_control.guest_account_enabled",
      "access_control.automatic_login",
      "access_control.weak_password_policy",
      "access_control.no_account_lockout",
      // No /etc/security/audit_control on this fake Mac, as macOS 14 and later ship.
      "access_control.openbsm_not_configured",
    ]);
    expect(JSON.stringify(state)).not.toContain("front.desk");
    expect(state.facts.screen_lock).toEqual({ enabled: true, delay_seconds: 0 });
  });

  it("accepts a short screen-lock delay and names what it could not read", async () => {
    const host = macWith("", "darwin-sysadminctl-screenlock-5s.txt");
    const state = await darwinAccessControl(host, new AbortController().signal);
    if (isUnavailable(state)) throw new Error(state.message);
    expect(state.findings.map((f) => f.id)).not.toContain("access_control.screen_lock_off");
    expect(state.facts).toMatchObject({ guest_enabled: null, automatic_login: null });
    expect(state.facts.loginwindow_unavailable).toMatch(/loginwindow preferences printed nothing readable/);
  });
});
