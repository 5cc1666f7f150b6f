import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  lockoutConfigured,
  loginDefsUmask,
  passwordMinLength,
  pwqualityMinlen,
  shellTimeoutSeconds,
  umaskLetsOthersRead,
} from "./pam-policy.js";

const fixture = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
const commonPassword = fixture("access_control/fixtures/linux-pam-common-password.txt");
const commonAuth = fixture("mfa/fixtures/linux-pam-common-auth.txt");

describe("Linux login policy", () => {
  it("Debian 12's stock password stack is pam_unix alone: 6 characters (its documented default)", () => {
    expect(passwordMinLength(commonPassword, null)).toEqual({ minLength: 6, module: "pam_unix.so" });
    expect(passwordMinLength(commonPassword.replace("obscure yescrypt", "obscure yescrypt minlen=10"), null)).toEqual({
      minLength: 10,
      module: "pam_unix.so",
    });
  });

  it("pam_pwquality decides when present: its minlen= argument, else pwquality.conf, else 8", () => {
    // The stack pam-auth-update writes once libpam-pwquality is installed: pwquality before pam_unix.
    const withQuality = commonPassword.replace(
      /^password\s+\[success=1 default=ignore\]\s+pam_unix\.so.*$/m,
      "password\trequisite\t\t\tpam_pwquality.so retry=3\npassword\t[success=1 default=ignore]\tpam_unix.so obscure use_authtok try_first_pass yescrypt",
    );
    expect(passwordMinLength(withQuality, null)).toEqual({ minLength: 8, module: "pam_pwquality.so" });
    expect(passwordMinLength(withQuality, "# minlen = 9\nminlen = 14\n")).toEqual({
      minLength: 14,
      module: "pam_pwquality.so",
    });
    expect(passwordMinLength(withQuality.replace("retry=3", "retry=3 minlen=12"), "minlen = 14")?.minLength).toBe(12);
    expect(pwqualityMinlen("# minlen = 9\n")).toBeNull();
    expect(passwordMinLength("# nothing here\n", null)).toBeNull();
  });

  it("Debian 12's stock auth stack locks nobody out; pam_faillock does", () => {
    expect(lockoutConfigured(commonAuth)).toBe(false);
    expect(
      lockoutConfigured(
        `auth\trequired\tpam_faillock.so preauth\n${commonAuth}auth\t[default=die]\tpam_faillock.so authfail\n`,
      ),
    ).toBe(true);
    // A commented-out line does not count.
    expect(lockoutConfigured("# auth required pam_faillock.so preauth\n")).toBe(false);
  });

  it("no TMOUT in Debian 12's /etc/profile; the smallest TMOUT set anywhere counts", () => {
    expect(shellTimeoutSeconds([fixture("access_control/fixtures/linux-profile.txt")])).toBeNull();
    expect(shellTimeoutSeconds(["readonly TMOUT=900\nexport TMOUT\n", "TMOUT=1800\n"])).toBe(900);
    expect(shellTimeoutSeconds(["# TMOUT=60\n"])).toBeNull();
  });

  it("Debian 12's login.defs sets UMASK 022: new files readable by every account", () => {
    const umask = loginDefsUmask(fixture("access_control/fixtures/linux-login.defs"));
    expect(umask).toBe("022");
    expect(umaskLetsOthersRead(umask!)).toBe(true);
    expect(umaskLetsOthersRead("027")).toBe(false);
    expect(umaskLetsOthersRead("077")).toBe(false);
  });
});
