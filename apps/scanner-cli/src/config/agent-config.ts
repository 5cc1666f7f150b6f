import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { CliError } from "../cli/errors.js";
import { type AgentKeys, generateAgentKeys, keysFromPem, privateKeyPem } from "../identity/keys.js";
import { writeFileAtomic } from "./atomic-write.js";
import type { ConfigFiles } from "./paths.js";

/** What `register` saves (not secret, but only this user needs it): who we are and which server we trust. */
export const AgentConfigSchema = z.object({
  agent_id: z.string().regex(/^agt_[0-9A-Za-z]{16}$/),
  npi: NpiSchema,
  practice_name: z.string(),
  server_url: z.url({ protocol: /^https$/ }),
  ca_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The pinned CA certificate, fetched at registration and verified against ca_sha256. */
  ca_pem: z.string().includes("-----BEGIN CERTIFICATE-----"),
  registered_at: z.iso.datetime(),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

export interface Registration {
  readonly config: AgentConfig;
  readonly keys: AgentKeys;
}

/** Saves the registration: the private key with mode 0600, written before the config that points at it. */
export function saveRegistration(files: ConfigFiles, registration: Registration): void {
  writeFileAtomic(files.privateKey, privateKeyPem(registration.keys), 0o600);
  writeFileAtomic(files.agent, `${JSON.stringify(registration.config, null, 2)}\n`, 0o600);
}

/** The saved registration, or null when this machine has not registered. Refuses a key readable by others. */
export function loadRegistration(
  files: ConfigFiles,
  platform: NodeJS.Platform = process.platform,
): Registration | null {
  if (!existsSync(files.agent)) return null;
  let config: AgentConfig;
  try {
    config = AgentConfigSchema.parse(JSON.parse(readFileSync(files.agent, "utf8")));
  } catch {
    throw new CliError("config_unreadable", `${files.agent} is damaged; register again with a new deploy token`);
  }
  if (!existsSync(files.privateKey))
    throw new CliError("config_unreadable", `${files.privateKey} is missing; register again with a new deploy token`);
  // Permission bits mean nothing on Windows (ACLs protect the profile directory there).
  if (platform !== "win32" && (statSync(files.privateKey).mode & 0o077) !== 0) {
    throw new CliError(
      "config_unreadable",
      `${files.privateKey} is readable by other users; run: chmod 600 "${files.privateKey}"`,
    );
  }
  try {
    return { config, keys: keysFromPem(readFileSync(files.privateKey, "utf8")) };
  } catch {
    throw new CliError("config_unreadable", `${files.privateKey} is not a valid Ed25519 key; register again`);
  }
}

/**
 * The key pair for a registration under way: the one a previous attempt saved (its registration may have reached
 * the server — the server answers the same key with the same token with the same agent), else a new one, saved
 * (0600) before the server is called.
 */
export function pendingRegistrationKeys(files: ConfigFiles): AgentKeys {
  if (existsSync(files.pendingKey)) {
    try {
      return keysFromPem(readFileSync(files.pendingKey, "utf8"));
    } catch {
      // Damaged (a crash mid-write is ruled out by the atomic write; a hand edit is not): start afresh.
    }
  }
  const keys = generateAgentKeys();
  writeFileAtomic(files.pendingKey, privateKeyPem(keys), 0o600);
  return keys;
}

/** The registration is saved: its key is the agent's key now. */
export function forgetPendingKeys(files: ConfigFiles): void {
  rmSync(files.pendingKey, { force: true });
}
