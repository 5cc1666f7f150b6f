import { join } from "node:path";

/**
 * The scanner's configuration directory: `--config-dir`, else HCS_SCANNER_CONFIG_DIR, else the platform's usual
 * place for per-user application state (XDG on Linux, Application Support on macOS, %APPDATA% on Windows).
 */
export function defaultConfigDir(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  if (env.HCS_SCANNER_CONFIG_DIR) return env.HCS_SCANNER_CONFIG_DIR;
  if (platform === "win32") return join(env.APPDATA ?? join(home, "AppData", "Roaming"), "hcs-scanner");
  if (platform === "darwin") return join(home, "Library", "Application Support", "hcs-scanner");
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "hcs-scanner");
}

/** Files inside the configuration directory. */
export function configFiles(dir: string) {
  return {
    dir,
    agent: join(dir, "agent.json"),
    privateKey: join(dir, "agent-ed25519.pem"),
    /** The key pair of a registration under way: kept until the registration is saved, so a retry re-uses it. */
    pendingKey: join(dir, "pending-ed25519.pem"),
    lastScan: join(dir, "last-scan.json"),
    spool: join(dir, "spool"),
    rejected: join(dir, "spool", "rejected"),
  };
}
export type ConfigFiles = ReturnType<typeof configFiles>;
