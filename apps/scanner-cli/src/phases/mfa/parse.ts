/** PAM modules that add a second factor. */
const MFA_MODULES =
  /\b(pam_google_authenticator|pam_oath|pam_u2f|pam_duo|pam_yubico|pam_radius_auth|pam_2fa|pam_sss_gss|pam_pkcs11|pam_p11)\.so\b/;

/** Second-factor PAM modules named by non-comment lines of a PAM service file. */
export function pamMfaModules(text: string): string[] {
  const found = new Set<string>();
  for (const line of text.split("\n")) {
    const body = line.replace(/#.*/, "");
    const m = MFA_MODULES.exec(body);
    if (m) found.add(m[1]!);
  }
  return [...found];
}

/** `sshd -T` (effective configuration, lower-case keys): the settings that decide how SSH users authenticate. */
export function parseSshdEffective(
  text: string,
): { passwordAuthentication: boolean; authenticationMethods: string; kbdInteractive: boolean } | null {
  const get = (key: string) => new RegExp(`^${key} (.+)$`, "m").exec(text)?.[1]?.trim();
  const password = get("passwordauthentication");
  if (password === undefined) return null;
  return {
    passwordAuthentication: password === "yes",
    authenticationMethods: get("authenticationmethods") ?? "any",
    kbdInteractive: get("kbdinteractiveauthentication") === "yes",
  };
}

/** The join and sign-in state `dsregcmd /status` reports (its labels are not translated). */
export interface DsregStatus {
  readonly azureAdJoined: boolean;
  readonly domainJoined: boolean;
  readonly workplaceJoined: boolean | null;
  /** NgcSet: the user running the command has a Windows Hello for Business key. */
  readonly helloForBusinessKey: boolean | null;
  /** PolicyEnabled in the Ngc Prerequisite Check: a policy turns Windows Hello for Business on. */
  readonly helloForBusinessPolicy: boolean | null;
}

/** `dsregcmd /status`: `Name : VALUE` lines in boxed sections; the first occurrence of a name wins. */
export function parseDsregcmdStatus(text: string): DsregStatus | null {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z][\w -]*?)\s+:\s*(.*?)\s*$/.exec(line);
    if (m && !values.has(m[1]!)) values.set(m[1]!, m[2]!);
  }
  const flag = (name: string) => {
    const v = values.get(name)?.toUpperCase();
    return v === "YES" ? true : v === "NO" ? false : null;
  };
  const azureAdJoined = flag("AzureAdJoined");
  const domainJoined = flag("DomainJoined");
  if (azureAdJoined === null || domainJoined === null) return null;
  return {
    azureAdJoined,
    domainJoined,
    workplaceJoined: flag("WorkplaceJoined"),
    helloForBusinessKey: flag("NgcSet"),
    helloForBusinessPolicy: flag("PolicyEnabled"),
  };
}
