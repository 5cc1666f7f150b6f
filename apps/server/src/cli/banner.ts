import { join } from "node:path";
import type { Config } from "../config.js";
import type { RunningServer } from "../server.js";
import { formatFingerprint } from "../tls/certificates.js";

/** What `hcs-server serve` prints at start: where it listens, the CA to trust, and on first start what to do next. */
export function startBanner(server: RunningServer, config: Config): string[] {
  const caFile =
    server.tls.source === "self-managed" ? join(config.dataDir, "tls", "ca.crt") : (config.tls?.certFile ?? "");
  const publicUrl = server.deps.config.publicUrl;
  const lines = [
    `HCS server ${server.deps.version} listening on ${server.url} (store: ${server.deps.store.description}${settlementsOf(server)})`,
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
      `  curl --cacert ${caFile} ${publicUrl}/healthz`,
      `  curl --cacert ${caFile} ${publicUrl}/.well-known/agent-card.json`,
      `  npx hcs-server practices add --npi 1234567893 --name "Sunrise Family Practice" --domain sunrise-clinic.example --account ${b.accountId}`,
      `  curl --cacert ${caFile} -H "X-API-Key: <the key above>" ${publicUrl}/v1/a2a/grade/1234567893`,
      `  curl --cacert ${caFile} -H "Authorization: Bearer <the key above>" ${publicUrl}/v1/practice?npi=1234567893`,
      "More: docs/operations.md",
    );
  }
  return lines;
}

/** Where the embedded store's settlements are written (HCS_SETTLEMENT_THREAD, auto by the CPUs: config.ts). */
function settlementsOf(server: RunningServer): string {
  if (server.deps.store.engine !== "sqlite") return "";
  return server.deps.settlementThread ? "; settlements: writer thread" : "; settlements: serving thread";
}
