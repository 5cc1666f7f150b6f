import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { parseRegQuery } from "../shared/reg-query.js";
import { type Reading, type Unavailable, unparsed } from "../shared/unavailable.js";
import { type InstalledSoftware, parseUninstallEntries, type Software } from "./parse.js";

/**
 * Programs and Features reads these two keys (64-bit and 32-bit programs). Per-user installs under HKCU belong to
 * whoever runs the scan, so they are not read. reg.exe is used rather than `wmic product`, whose query makes
 * Windows Installer re-verify (and sometimes repair) every MSI package.
 */
const UNINSTALL_KEYS = [
  "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall",
  "HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall",
];

/** Installed programs from the uninstall registry (readable without elevation). */
export async function windowsSoftware(host: Host, signal: AbortSignal): Promise<Reading<InstalledSoftware>> {
  const seen = new Set<string>();
  const out: Software[] = [];
  let readable = 0;
  let problem: Unavailable | null = null;
  for (const key of UNINSTALL_KEYS) {
    const r = await host.exec("reg", ["query", key, "/s"], { signal });
    problem ??= commandUnavailable(r);
    // 32-bit Windows has no WOW6432Node: reg exits 1 for the missing key, which is not an error here.
    if (!r.ok) continue;
    readable++;
    for (const s of parseUninstallEntries(parseRegQuery(r.stdout))) {
      const id = `${s.name}\u0000${s.version}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(s);
    }
  }
  return readable > 0
    ? { source: "uninstall_registry", packages: out }
    : (problem ?? unparsed("reg query could not read the uninstall registry"));
}
