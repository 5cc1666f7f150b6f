import {
  type AgentRegistrationResponse,
  AgentRegistrationResponseSchema,
  type DeployTokenParts,
  isRetryableStatus,
  registrationProofMessage,
  SCANNER_API_PATHS,
} from "@hcs/protocol";
import { CliError } from "../cli/errors.js";
import {
  forgetPendingKeys,
  loadRegistration,
  pendingRegistrationKeys,
  type Registration,
  saveRegistration,
} from "../config/agent-config.js";
import { probeWritableDir } from "../config/atomic-write.js";
import { type AgentKeys, generateAgentKeys, signMessage } from "../identity/keys.js";
import { readDeployToken } from "../token/read-token.js";
import { fetchPinnedCa } from "../transport/pinned-ca.js";
import { ServerRefusal } from "../transport/server-refusal.js";
import { type CommandContext, type CommonOptions, clientFor, filesFor } from "./context.js";

export interface TokenOptions {
  readonly key?: string;
  readonly keyFile?: string;
}

const REFUSALS: Record<string, string> = {
  deploy_token_expired: "the deploy token has expired",
  deploy_token_used: "the deploy token has already been used as many times as it allows",
  deploy_token_revoked: "the deploy token has been revoked",
  invalid_credentials: "this server does not recognise the deploy token (issued by another server, or altered)",
  invalid_signature: "the server could not verify this scanner's key",
};

/** Reads and checks the token, pins the server's CA and enrols a new key pair. Shared by register and one-shot. */
export async function enrol(
  ctx: CommandContext,
  token: { token: string; parts: DeployTokenParts },
  ephemeral: boolean,
  keys: AgentKeys = generateAgentKeys(),
): Promise<Registration> {
  const identity = ctx.identity();
  const caPem = await fetchPinnedCa(token.parts.serverUrl, token.parts.caSha256);
  const client = clientFor(ctx, { server_url: token.parts.serverUrl, ca_pem: caPem });
  const body = {
    deploy_token: token.token,
    public_key: keys.publicKey,
    proof: signMessage(keys, registrationProofMessage(token.token, keys.publicKey)),
    hostname: identity.hostname().slice(0, 253) || "unknown-host",
    platform: identity.platform,
    scanner_version: ctx.version,
    ephemeral,
  };
  let registered: AgentRegistrationResponse;
  try {
    const res = await client.postJson(SCANNER_API_PATHS.register, JSON.stringify(body));
    registered = AgentRegistrationResponseSchema.parse(res.json);
  } catch (err) {
    // A server that is busy or failing has not judged the token: the same command, later, registers (it is
    // retry-safe: the saved key pair is sent again).
    if (err instanceof ServerRefusal && isRetryableStatus(err.status)) {
      throw new CliError(
        "server_unreachable",
        `the server answered ${err.status} (${err.code}); run the same command again in a moment — the deploy token is still good`,
      );
    }
    if (err instanceof ServerRefusal) {
      const why =
        REFUSALS[err.code] ?? `the server refused the registration (${err.status} ${err.code}: ${err.message})`;
      throw new CliError(
        "token_rejected",
        `${why}; ask for a new deploy token (POST ${SCANNER_API_PATHS.deploy})`,
        err.code,
      );
    }
    throw err;
  }
  return {
    keys,
    config: {
      agent_id: registered.agent_id,
      npi: registered.npi,
      practice_name: registered.practice_name,
      server_url: token.parts.serverUrl,
      ca_sha256: token.parts.caSha256,
      ca_pem: caPem,
      registered_at: registered.registered_at,
    },
  };
}

export async function registerCommand(
  ctx: CommandContext,
  o: CommonOptions & TokenOptions & { force?: boolean },
): Promise<void> {
  const files = filesFor(ctx, o);
  // Arguments first, then local state, then the server: a bad or missing token is named as such whatever is
  // saved, and nothing local can fail after the server has spent a use of the token.
  const token = await readDeployToken({
    ...o,
    env: ctx.env.HCS_DEPLOY_TOKEN,
    readStdin: ctx.readStdin,
    warn: ctx.output.err,
  });
  const existing = loadRegistration(files, ctx.platform);
  if (existing && !o.force) {
    throw new CliError(
      "usage",
      `this machine is already registered as ${existing.config.agent_id} for NPI ${existing.config.npi}; pass --force to replace that identity`,
    );
  }
  const writable = probeWritableDir(files.dir);
  if (!writable.ok)
    throw new CliError(
      "config_unreadable",
      `cannot write the scanner's configuration at ${writable.path} (${writable.code}); choose a writable --config-dir or fix its permissions — the deploy token was not used`,
    );
  // The key pair is saved before the server is called and re-used by a retry: if this run registers but cannot
  // save, running the command again gets the same agent back instead of spending another use of the token.
  const registration = await enrol(ctx, token, false, pendingRegistrationKeys(files));
  try {
    saveRegistration(files, registration);
  } catch (err) {
    throw new CliError(
      "config_unreadable",
      `registered as ${registration.config.agent_id}, but could not save it in ${files.dir} (${(err as NodeJS.ErrnoException).code ?? String(err)}); fix that and run the same command again: it re-uses this key, so the token is not spent twice`,
    );
  }
  forgetPendingKeys(files);
  const c = registration.config;
  if (o.json) {
    ctx.output.out(
      JSON.stringify(
        {
          agent_id: c.agent_id,
          npi: c.npi,
          practice_name: c.practice_name,
          server_url: c.server_url,
          config_dir: files.dir,
        },
        null,
        2,
      ),
    );
    return;
  }
  ctx.output.out(`Registered ${c.agent_id} for ${c.practice_name} (NPI ${c.npi}) with ${c.server_url}`);
  ctx.output.out(`Identity saved in ${files.dir} (private key mode 0600; it never leaves this machine).`);
  ctx.output.out("Next: hcs-scanner scan --targets <your clinic subnet, e.g. a /24 in CIDR form>");
}
