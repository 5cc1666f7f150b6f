import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { type InstalledSoftware, parseTabbedPackages } from "./parse.js";

/** dpkg-query's own format language (not a template string): one `name<TAB>version` line per package. */
const DPKG_ARGS = ["-W", "-f=" + "$" + "{Package}\t" + "$" + "{Version}\n"];
const RPM_ARGS = ["-qa", "--qf", "%{NAME}\t%{VERSION}-%{RELEASE}\n"];

/** Installed packages from dpkg (Debian, Ubuntu) or, failing that, rpm (RHEL, SUSE, Fedora). */
export async function linuxSoftware(host: Host, signal: AbortSignal): Promise<Reading<InstalledSoftware>> {
  const dpkg = await host.exec("dpkg-query", DPKG_ARGS, { signal });
  if (dpkg.ok) return { source: "dpkg", packages: parseTabbedPackages(dpkg.stdout) };
  const rpm = await host.exec("rpm", RPM_ARGS, { signal });
  if (rpm.ok) return { source: "rpm", packages: parseTabbedPackages(rpm.stdout) };
  // Neither tool is not_found only when both are missing; otherwise the reason of the one that is there.
  const rpmProblem = commandUnavailable(rpm);
  const dpkgProblem = commandUnavailable(dpkg);
  if (rpmProblem?.kind === "not_found" && dpkgProblem && dpkgProblem.kind !== "not_found") return dpkgProblem;
  return rpmProblem ?? dpkgProblem ?? unparsed("neither dpkg nor rpm listed installed packages");
}
