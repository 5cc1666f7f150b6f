import type { Host } from "../../host/host.js";
import type { AccessControlState } from "./findings.js";
import {
  homeDirectoriesFinding,
  loginAccounts,
  type PathMode,
  SENSITIVE_PATHS,
  sensitivePathsFinding,
} from "./path-permissions.js";

/** Most accounts a clinic machine has; more homes than this are not all stat'ed (a directory server's client). */
const MAX_HOMES = 200;

/** Permissions of login accounts' home directories and of cron, shadow and root's paths (stat only, no root needed). */
export async function linuxPathPermissions(host: Host, passwd: string): Promise<AccessControlState> {
  const accounts = loginAccounts(passwd).slice(0, MAX_HOMES);
  const statMode = async (path: string): Promise<PathMode> => {
    const s = await host.fs.stat(path);
    return { path, mode: s ? s.mode & 0o7777 : null };
  };
  const [homes, system] = await Promise.all([
    Promise.all([...new Set(accounts.map((a) => a.home))].map(statMode)),
    Promise.all(SENSITIVE_PATHS.map((p) => statMode(p.path))),
  ]);
  const findings = [homeDirectoriesFinding(accounts, homes), sensitivePathsFinding(system)].filter((f) => f !== null);
  return {
    facts: {
      home_directories_checked: homes.filter((h) => h.mode !== null).length,
      sensitive_paths_checked: system.filter((p) => p.mode !== null).length,
    },
    findings,
  };
}
