import { join, resolve } from "node:path";
import type { RunningServer } from "../server.js";
import { formatFingerprint } from "../tls/certificates.js";
import { type CommandConfig, storeLine } from "./context.js";
import { SERVER_RECORD_FILE } from "./server-record.js";

/** A word as a POSIX shell reads it back: as it is when it holds nothing the shell treats specially, else quoted. */
const shellWord = (word: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * What `hcs-server serve` prints at start: where it listens, which store and data directory it uses, the CA to trust,
 * and on first start what to do next. The next steps are pasted as they stand: their operator command names the data
 * directory unless it is the default one of the directory they are printed in, and reads this server's store and
 * links from its record there (server-record.ts), so neither DATABASE_URL nor HCS_PORT has to be repeated.
 */
export function startBanner(server: RunningServer, resolved: CommandConfig, options: { cwd: string }): string[] {
  const config = resolved.config;
  const caFile =
    server.tls.source === "self-managed" ? join(config.dataDir, "tls", "ca.crt") : (config.tls?.certFile ?? "");
  const publicUrl = server.deps.config.publicUrl;
  const lines = [
    `HCS server ${server.deps.version} listening on ${server.url} (${storeLine(server.deps.store, resolved)}${settlementsOf(server)})`,
    `Data directory: ${config.dataDir} (operator commands on it read this server's settings from ${SERVER_RECORD_FILE})`,
    ...(server.httpPort !== null
      ? [`Plain HTTP on port ${server.httpPort} answers every request 403 https_required`]
      : []),
    `TLS: ${server.tls.source === "self-managed" ? `self-managed CA ${server.tls.createdCa ? "(created now)" : ""}` : "configured certificate"} ${caFile}`.replace(
      /\s+/g,
      " ",
    ),
    `CA SHA-256 fingerprint: ${formatFingerprint(server.tls.caSha256)}`,
  ];
  const b = server.bootstrap;
  if (b) {
    const rule = "=".repeat(78);
    const dataDir =
      config.dataDir === resolve(options.cwd, ".hcs-data") ? "" : `HCS_DATA_DIR=${shellWord(config.dataDir)} `;
    const ca = shellWord(caFile);
    lines.push(
      "",
      rule,
      `First start: created the operator account ${b.accountId} (Professional plan, bulk tier, ${b.credits} credits)`,
      "and its API key. It is shown only now, here, and never written to the log; store it safely:",
      "",
      `  ${b.apiKey}`,
      "",
      rule,
      "",
      "Next steps:",
      `  curl --cacert ${ca} ${publicUrl}/healthz`,
      `  curl --cacert ${ca} ${publicUrl}/.well-known/agent-card.json`,
      `  ${dataDir}npx hcs-server practices add --npi 1234567893 --name "Sunrise Family Practice" --domain sunrise-clinic.example --account ${b.accountId}`,
      `  curl --cacert ${ca} -H "X-API-Key: <the key above>" ${publicUrl}/v1/a2a/grade/1234567893`,
      `  curl --cacert ${ca} -H "Authorization: Bearer <the key above>" "${publicUrl}/v1/practice?npi=1234567893"`,
      `  ${dataDir}npx hcs-server users invite --account ${b.accountId} --email you@sunrise-clinic.example`,
      "More: docs/operations.md",
    );
  }
  return lines;
}

/** Where the embedded store's settlements are written (HCS_SETTLEMENT_THREAD, auto by the CPUs: config.ts). */
function settlementsOf(server: RunningServer): string {
  // Only the embedded store (its database file) has a writer thread to choose.
  if (server.deps.store.file === undefined) return "";
  return server.deps.settlementThread ? "; settlements: writer thread" : "; settlements: serving thread";
}
