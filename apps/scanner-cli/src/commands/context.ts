import { homedir } from "node:os";
import { resolve } from "node:path";
import type { Output } from "../cli/output.js";
import { type ConfigFiles, configFiles, defaultConfigDir } from "../config/paths.js";
import type { HostIdentity } from "../host/identity.js";
import { ServerClient } from "../transport/server-client.js";

/** Everything a command may touch, handed in by bin.ts (the only module that reads process state). */
export interface CommandContext {
  readonly output: Output;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Node's platform name, for where configuration lives (config/paths.ts). */
  readonly platform: NodeJS.Platform;
  /** The machine as the server is told about it (host/identity.ts); tests may fake it. */
  readonly identity: () => HostIdentity;
  readonly cwd: string;
  readonly readStdin: () => Promise<string>;
  /** Aborted on Ctrl-C / SIGTERM. */
  readonly signal: AbortSignal;
  readonly now: () => Date;
  readonly version: string;
}

export interface CommonOptions {
  readonly configDir?: string;
  readonly json?: boolean;
  readonly verbose?: boolean;
  readonly quiet?: boolean;
}

export function filesFor(ctx: CommandContext, o: CommonOptions): ConfigFiles {
  return configFiles(resolve(ctx.cwd, o.configDir ?? defaultConfigDir(ctx.platform, ctx.env, homedir())));
}

export const userAgentOf = (version: string) =>
  `hcs-scanner/${version} (node ${process.versions.node}; ${process.platform})`;

/**
 * A client for one HCS server, trusting only its pinned CA: a registration's, a spooled entry's or a fresh token's.
 * `retries`: attempts after the first on network errors, 429 and 5xx (none by default).
 */
export function clientFor(
  ctx: CommandContext,
  server: { readonly server_url: string; readonly ca_pem: string },
  retries?: number,
): ServerClient {
  return new ServerClient({
    serverUrl: server.server_url,
    caPem: server.ca_pem,
    userAgent: userAgentOf(ctx.version),
    ...(retries !== undefined ? { retries } : {}),
  });
}
