import type { FindingInput } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { defaultsBool, parseDefaultsKey } from "../shared/defaults-read.js";
import { type Reading, type Unavailable, unparsed } from "../shared/unavailable.js";
import { type MfaState, noMfaForLogins } from "./findings.js";

/** Where a configuration profile (MDM) puts the setting, and where a local administrator writes it. */
const SMART_CARD_DOMAINS = [
  "/Library/Managed Preferences/com.apple.security.smartcard",
  "/Library/Preferences/com.apple.security.smartcard",
];

/**
 * Smart-card (PIV/CAC) enforcement: with enforceSmartCard on, macOS accepts only the card plus its PIN at login and
 * unlock. Touch ID is not counted: it stands in for the password rather than adding a factor.
 */
export async function darwinMfa(host: Host, signal: AbortSignal): Promise<Reading<MfaState>> {
  let enforced = false;
  let readable = 0;
  let problem: Unavailable | null = null;
  for (const domain of SMART_CARD_DOMAINS) {
    const r = await host.exec("defaults", ["read", domain, "enforceSmartCard"], { signal });
    const unusable = commandUnavailable(r);
    if (unusable) {
      problem ??= unusable;
      continue;
    }
    // defaults exits 1 when the domain or the key does not exist: the setting is simply not made there.
    const value = r.exitCode === 1 ? null : parseDefaultsKey(`${r.stdout}\n${r.stderr}`);
    if (value === undefined) continue;
    readable++;
    if (value !== null && defaultsBool(value) === true) enforced = true;
  }
  if (readable === 0) return problem ?? unparsed("defaults printed nothing readable for the smart card settings");
  const findings: FindingInput[] = enforced
    ? []
    : [
        noMfaForLogins(
          "Smart card enforcement (enforceSmartCard) is not set, so local and screen-unlock logins accept a password alone.",
          "Enforce smart card (PIV) login with a configuration profile (com.apple.security.smartcard: enforceSmartCard true), or sign in through an identity provider that requires MFA (Platform SSO).",
          { smart_card_enforced: false },
        ),
      ];
  return { facts: { smart_card_enforced: enforced }, findings };
}
