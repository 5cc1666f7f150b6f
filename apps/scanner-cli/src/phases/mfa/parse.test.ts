import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pamMfaModules, parseDsregcmdStatus, parseSshdEffective } from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("mfa parsers", () => {
  it("finds no second factor in Debian 12's stock PAM files", () => {
    expect(pamMfaModules(fixture("linux-pam-common-auth.txt"))).toEqual([]);
    expect(pamMfaModules(fixture("linux-pam-sshd.txt"))).toEqual([]);
    expect(pamMfaModules("auth required pam_google_authenticator.so nullok\n# auth required pam_u2f.so\n")).toEqual([
      "pam_google_authenticator",
    ]);
  });

  it("reads the effective sshd authentication settings", () => {
    expect(parseSshdEffective(fixture("linux-sshd-T.txt"))).toEqual({
      passwordAuthentication: true,
      authenticationMethods: "any",
      kbdInteractive: false,
    });
    expect(parseSshdEffective("garbage")).toBeNull();
  });

  it("reads dsregcmd /status of a hybrid-joined machine whose user has a Hello for Business key", () => {
    expect(parseDsregcmdStatus(fixture("win32-dsregcmd-status-hybrid.txt"))).toEqual({
      azureAdJoined: true,
      domainJoined: true,
      workplaceJoined: false,
      helloForBusinessKey: true,
      helloForBusinessPolicy: null,
    });
  });

  it("reads dsregcmd /status of an unjoined home PC with only a registered work account", () => {
    expect(parseDsregcmdStatus(fixture("win32-dsregcmd-status-unjoined.txt"))).toEqual({
      azureAdJoined: false,
      domainJoined: false,
      workplaceJoined: true,
      helloForBusinessKey: false,
      helloForBusinessPolicy: false,
    });
    expect(parseDsregcmdStatus("'dsregcmd' is not recognized as an internal or external command")).toBeNull();
  });
});
