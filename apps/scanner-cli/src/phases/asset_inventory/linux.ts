import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { parseTabbedPackages, type Software } from "./parse.js";

/** dpkg-query's own format language (not a template string): one `name<TAB>version` line per package. */
const DPKG_ARGS = ["-W", "-f=" + "$" + "{Package}\t" + "$" + "{Version}\n"];
const RPM_ARGS = ["-qa", "--qf", "%{NAME}\t%{VERSION}-%{RELEASE}\n"];

/** Installed packages from dpkg (Debian, Ubuntu) or, failing that, rpm (RHEL, SUSE, Fedora). */
export async function linuxSoftware(host: Host, signal: AbortSignal): Promise<Software[] | string> {
  const dpkg = await host.exec("dpkg-query", DPKG_ARGS, { signal });
  if (dpkg.ok) return parseTabbedPackages(dpkg.stdout);
  const rpm = await host.exec("rpm", RPM_ARGS, { signal });
  if (rpm.ok) return parseTabbedPackages(rpm.stdout);
  return unusableOutput(rpm) ?? unusableOutput(dpkg) ?? "neither dpkg nor rpm listed installed packages";
}
