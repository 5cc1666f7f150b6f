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
