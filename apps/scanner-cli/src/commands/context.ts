import { homedir } from "node:os";
import { resolve } from "node:path";
import type { Output } from "../cli/output.js";
import { type ConfigFiles, configFiles, defaultConfigDir } from "../config/paths.js";

/** Everything a command may touch, handed in by bin.ts (the only module that reads process state). */
export interface CommandContext {
  readonly output: Output;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
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
