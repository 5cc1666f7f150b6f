/** `ufw status` / `ufw status verbose`: active or inactive, or null when the output is not ufw's. */
export function parseUfwStatus(text: string): "active" | "inactive" | null {
  const m = /^Status:\s*(active|inactive)\b/m.exec(text);
  return m ? (m[1] as "active" | "inactive") : null;
}

/**
 * `socketfilterfw --getglobalstate` (macOS Application Firewall): State 0 is off, 1 is on, 2 is on and blocking
 * every incoming connection. Null when the text is not the tool's.
 */
export function parseSocketfilterfwState(text: string): "on" | "off" | null {
  const m = /^Firewall is .*\(State = (\d)\)/m.exec(text);
  if (!m) return null;
  return m[1] === "0" ? "off" : "on";
}

/** One Windows Firewall profile (Domain, Private, Public) and whether it filters traffic. */
export interface FirewallProfile {
  readonly profile: string;
  readonly enabled: boolean;
}

/**
 * `netsh advfirewall show allprofiles` (or `currentprofile`): each `<Name> Profile Settings:` block and its State
 * line. netsh translates both the labels and ON/OFF, so only English output is read; null otherwise.
 */
export function parseNetshProfiles(text: string): FirewallProfile[] | null {
  const profiles: FirewallProfile[] = [];
  let current: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const head = /^(\w+) Profile Settings:/.exec(line);
    if (head) {
      current = head[1]!;
      continue;
    }
    const state = /^State\s+(ON|OFF)\s*$/.exec(line);
    if (state && current) {
      profiles.push({ profile: current, enabled: state[1] === "ON" });
      current = null;
    }
  }
  return profiles.length > 0 ? profiles : null;
}
