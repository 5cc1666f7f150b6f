import { defaultsBool, defaultsString, parseDefaultsDomain } from "../shared/defaults-read.js";

/** An update Software Update recommended at its last check. */
export interface RecommendedUpdate {
  readonly name: string;
  readonly version: string;
  /** Security updates, Rapid Security Responses and macOS point releases (which carry the security fixes). */
  readonly security: boolean;
}

/** What `/Library/Preferences/com.apple.SoftwareUpdate` records about the last check and the automatic settings. */
export interface SoftwareUpdateState {
  /** When Software Update last completed a full check; the recommended list is exactly that old. */
  readonly lastFullCheck: Date | null;
  readonly recommended: readonly RecommendedUpdate[];
  /** LastRecommendedUpdatesAvailable, which can count updates the list does not spell out. */
  readonly recommendedCount: number;
  /** Undefined when the key is absent: macOS then uses its built-in default (check on, download on). */
  readonly automaticCheck: boolean | undefined;
  readonly automaticDownload: boolean | undefined;
  /** "Install Security Responses and system files". */
  readonly criticalUpdateInstall: boolean | undefined;
  readonly automaticMacOSUpdates: boolean | undefined;
}

const SECURITY_UPDATE = /security|rapid security response|^macOS /i;

/** `defaults read /Library/Preferences/com.apple.SoftwareUpdate`, or null when the text is not that domain. */
export function parseSoftwareUpdatePrefs(text: string): SoftwareUpdateState | null {
  const prefs = parseDefaultsDomain(text);
  if (!prefs) return null;
  const list = Array.isArray(prefs.RecommendedUpdates) ? prefs.RecommendedUpdates : [];
  const recommended: RecommendedUpdate[] = [];
  for (const item of list) {
    if (typeof item !== "object" || Array.isArray(item)) continue;
    const name = defaultsString(item, "Display Name") ?? defaultsString(item, "Identifier");
    if (!name) continue;
    recommended.push({
      name,
      version: defaultsString(item, "Display Version") ?? "",
      security: SECURITY_UPDATE.test(name),
    });
  }
  const count = Number(defaultsString(prefs, "LastRecommendedUpdatesAvailable") ?? Number.NaN);
  return {
    lastFullCheck: plistDate(defaultsString(prefs, "LastFullSuccessfulDate")),
    recommended,
    recommendedCount: Number.isInteger(count) ? Math.max(count, recommended.length) : recommended.length,
    automaticCheck: defaultsBool(defaultsString(prefs, "AutomaticCheckEnabled")),
    automaticDownload: defaultsBool(defaultsString(prefs, "AutomaticDownload")),
    criticalUpdateInstall: defaultsBool(defaultsString(prefs, "CriticalUpdateInstall")),
    automaticMacOSUpdates: defaultsBool(defaultsString(prefs, "AutomaticallyInstallMacOSUpdates")),
  };
}

/** Dates in defaults output read `2021-02-23 07:52:51 +0000`. */
function plistDate(value: string | undefined): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})$/.exec(value ?? "");
  if (!m) return null;
  const date = new Date(`${m[1]}T${m[2]}${m[3]}:${m[4]}`);
  return Number.isNaN(date.getTime()) ? null : date;
}
