import { readFileSync } from "node:fs";
import { ConfigError } from "../config.js";
import { assertOwnerOnly, ExposedKeyFileError } from "../util/private-files.js";

/** Where `hcs-server mcp` may find the caller's API key. */
export interface McpKeySources {
  /** `--key-file <path>`: wins over the environment, as an explicit flag should. */
  readonly keyFile?: string;
  /** HCS_MCP_API_KEY. */
  readonly env?: string;
  /** True when a key was given as `--key`: refused, not used. */
  readonly onCommandLine: boolean;
}

/**
 * The API key of the stdio server's caller. A key on the command line is refused (it would stay in the shell's
 * history and show in every process listing); a key file others can read is refused like any private key file.
 * Problems are configuration errors (exit code 2), named after where the key was looked for.
 */
export function readMcpApiKey(sources: McpKeySources): { key: string; from: string } {
  if (sources.onCommandLine)
    throw new ConfigError(
      "--key",
      "a key on the command line stays in shell history and process listings; set HCS_MCP_API_KEY or use --key-file <path>",
    );
  if (sources.keyFile) {
    let text: string;
    try {
      assertOwnerOnly(sources.keyFile);
      text = readFileSync(sources.keyFile, "utf8");
    } catch (err) {
      if (err instanceof ExposedKeyFileError) throw err;
      throw new ConfigError("--key-file", `cannot read ${sources.keyFile}`);
    }
    const key = text.trim();
    if (!key) throw new ConfigError("--key-file", `${sources.keyFile} is empty`);
    return { key, from: "--key-file" };
  }
  const key = sources.env?.trim();
  if (!key)
    throw new ConfigError(
      "HCS_MCP_API_KEY",
      "hcs-server mcp needs the API key of the account whose tools it serves: set HCS_MCP_API_KEY or pass --key-file <path>",
    );
  return { key, from: "HCS_MCP_API_KEY" };
}
