import { readFileSync } from "node:fs";
import { type DeployTokenParts, decodeDeployToken } from "@hcs/protocol";
import { CliError } from "../cli/errors.js";

export interface TokenSources {
  /** `--key <token>`, or `-` to read it from standard input. */
  readonly key?: string;
  readonly keyFile?: string;
  /** HCS_DEPLOY_TOKEN. */
  readonly env?: string;
  readonly readStdin: () => Promise<string>;
  readonly warn: (line: string) => void;
}

const PROBLEM_TEXT: Record<string, string> = {
  malformed: "is not an HCS deploy token (it should start with hcsdt1. and have five dot-separated parts)",
  checksum_mismatch:
    "is damaged: its checksum does not match (a character was changed or it was cut short when copied)",
  bad_server_url: "carries no usable https server URL",
  bad_ca_pin: "carries no usable CA fingerprint",
};

/**
 * The deploy token from `--key`, `--key-file`, `HCS_DEPLOY_TOKEN` or standard input (`--key -`), decoded and checked
 * locally (nothing is contacted). A token typed on the command line is accepted with a warning: it stays in the
 * shell's history.
 */
export async function readDeployToken(sources: TokenSources): Promise<{ token: string; parts: DeployTokenParts }> {
  let token: string | undefined;
  let from: string;
  if (sources.key !== undefined && sources.keyFile !== undefined)
    throw new CliError("usage", "give the deploy token one way: --key or --key-file, not both");
  if (sources.key === "-") {
    token = (await sources.readStdin()).trim();
    from = "standard input";
  } else if (sources.key) {
    token = sources.key.trim();
    from = "--key";
    sources.warn(
      "warning: a token given with --key stays in your shell history; prefer --key-file <file>, HCS_DEPLOY_TOKEN or --key - (stdin)",
    );
  } else if (sources.keyFile) {
    try {
      token = readFileSync(sources.keyFile, "utf8").trim();
    } catch {
      throw new CliError("token_missing", `cannot read the deploy token file ${sources.keyFile}`);
    }
    from = sources.keyFile;
  } else if (sources.env) {
    token = sources.env.trim();
    from = "HCS_DEPLOY_TOKEN";
  } else {
    throw new CliError(
      "token_missing",
      "a deploy token is needed: --key-file <file>, HCS_DEPLOY_TOKEN, --key - (stdin) or --key <token>",
    );
  }
  if (!token) throw new CliError("token_missing", `the deploy token from ${from} is empty`);
  const decoded = decodeDeployToken(token);
  if (!decoded.ok)
    throw new CliError(
      "token_malformed",
      `the deploy token from ${from} ${PROBLEM_TEXT[decoded.problem]}; request a new one from your HCS account`,
    );
  return { token, parts: decoded.token };
}
