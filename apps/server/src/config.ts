import { isIP } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { parseTrustProxy, type TrustProxy } from "./http/client-address.js";
import type { PostgresTimeouts } from "./store/postgres-pool.js";
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from "./tls/connection-limits.js";

/** The words a yes/no variable takes, and which of them mean yes. */
const BOOL_WORDS = ["0", "1", "true", "false", "yes", "no"] as const;
const isYes = (v: string): boolean => v === "1" || v === "true" || v === "yes";

const bool = z.enum([...BOOL_WORDS, ""]).transform(isYes);

const port = z.coerce.number().int().min(0).max(65535);

const hostPort = z.string().regex(/^(\[[0-9a-fA-F:]+\]|[0-9.]+|[A-Za-z0-9.-]+):[0-9]{1,5}$/, "host:port");

/**
 * Where `npm run build` puts the scanner package (apps/server/dist/scanner-package, scripts/pack-scanner.mjs): the same
 * directory whether this module runs from src/ (tests, tsx) or from dist/.
 */
const BUILT_SCANNER_DIR = fileURLToPath(new URL("../dist/scanner-package", import.meta.url));

/** Environment variables the server reads, validated once at start-up (documented in docs/operations.md). */
const EnvSchema = z.object({
  HCS_DATA_DIR: z.string().min(1).default("./.hcs-data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  HCS_HOST: z
    .string()
    .refine((h) => isIP(h) !== 0 || /^[A-Za-z0-9.-]+$/.test(h), "must be an IP address or a host name")
    .default("127.0.0.1"),
  HCS_PORT: port.default(8443),
  HCS_HTTP_PORT: port.optional(),
  HCS_TLS_CERT: z.string().min(1).optional(),
  HCS_TLS_KEY: z.string().min(1).optional(),
  HCS_PUBLIC_URL: z
    .url({ protocol: /^https$/, error: "must be an https:// URL" })
    .transform((u) => u.replace(/\/+$/, ""))
    .optional(),
  HCS_TRUST_PROXY: z.string().default("0"),
  HCS_CONTACT_EMAIL: z.email({ error: "must be an email address" }).max(254).optional(),
  HCS_TLS_HANDSHAKE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(DEFAULT_CONNECTION_LIMITS.handshakeTimeoutMs),
  HCS_HEADERS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(DEFAULT_CONNECTION_LIMITS.headersTimeoutMs),
  HCS_KEEP_ALIVE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs),
  HCS_MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(DEFAULT_CONNECTION_LIMITS.maxPerAddress),
  HCS_ALLOW_PRIVATE_TARGETS: bool.default(false),
  HCS_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  HCS_DNS_SERVERS: z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(hostPort).max(8))
    .optional(),
  HCS_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  HCS_EXTRA_CA_FILE: z.string().min(1).optional(),
  HCS_SCANNER_DIR: z.string().min(1).optional(),
  HCS_JOB_LEASE_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  HCS_PORTAL_IDLE_MINUTES: z.coerce.number().min(0.05).max(720).default(15),
  HCS_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  HCS_MASTER_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "must be 64 hex digits (32 bytes)")
    .optional(),
  HCS_DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(3_000),
  HCS_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  HCS_CHECKPOINT_INTERVAL_S: z.coerce.number().int().min(1).max(86_400).default(86_400),
  HCS_ANCHOR_RPC_URL: z
    .url({ protocol: /^https?$/, error: "must be an https:// URL (http:// only for a node on this machine)" })
    .refine(isLocalOrHttps, "must be an https:// URL (http:// only for a node on this machine)")
    .optional(),
  HCS_ANCHOR_CHAIN_ID: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  HCS_ANCHOR_KEY_FILE: z.string().min(1).optional(),
  HCS_ANCHOR_CONTRACT: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a contract address: 0x and 40 hex digits")
    .optional(),
  HCS_ANCHOR_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  HCS_FEEDS_REFRESH: z
    .string()
    .regex(/^(off|0|[1-9][0-9]{0,4}[mhd])$/, "off, or an interval such as 30m, 6h or 1d")
    .default("off"),
  HCS_FEED_HHS_URL: z.url({ protocol: /^https$/, error: "must be an https:// URL" }).optional(),
  HCS_FEED_KEV_URL: z
    .url({ protocol: /^https$/, error: "must be an https:// URL" })
    .default("https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json"),
  HCS_FEED_EOL_URL: z
    .string()
    .regex(/^https:\/\/\S+\{product\}\S*$/, "must be an https:// URL with a {product} placeholder")
    .default("https://endoflife.date/api/{product}.json"),
});

/**
 * Variables whose values are secrets (or may embed one, as a database URL's password does): a configuration
 * error names them and says what is wrong, never what they hold.
 */
const SECRET_VARIABLES: ReadonlySet<string> = new Set(["HCS_MASTER_KEY", "DATABASE_URL", "HCS_ANCHOR_RPC_URL"]);

export interface Config {
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  readonly host: string;
  readonly port: number;
  readonly httpPort: number | null;
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  /** Base URL clients reach this server at (deploy tokens and agent cards carry it). */
  readonly publicUrl: string;
  /** False when publicUrl was derived from host and port (then a port of 0 is replaced by the bound port). */
  readonly publicUrlExplicit: boolean;
  /** Which proxies may report the client address and protocol (X-Forwarded-For/-Proto). */
  readonly trustProxy: TrustProxy;
  /**
   * Where customers ask for credits, a plan change or Enterprise terms: named by the agent card, the account answer
   * and every 402 and 403 that points to an upgrade (null: not configured; those answers then name none).
   */
  readonly contactEmail: string | null;
  /** Handshake, header and keep-alive timeouts and the per-address connection cap of the listeners. */
  readonly connectionLimits: ConnectionLimits;
  readonly allowPrivateTargets: boolean;
  readonly logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  readonly dnsServers: readonly { host: string; port: number }[] | null;
  readonly workerConcurrency: number;
  readonly masterKeyHex: string | null;
  /** PEM file of extra CA certificates trusted for outbound TLS (external scan, webhooks): labs and tests. */
  readonly extraCaFile: string | null;
  /** Directory holding the scanner package this server serves (`hcs-scanner-<version>.tgz`; docs/operations.md). */
  readonly scannerDir: string;
  /** How long a worker's claim on a job lasts without a heartbeat before another worker may take it over. */
  readonly jobLeaseMs: number;
  /** Minutes without activity after which a portal session ends (164.312(a)(2)(iii)); fractions for tests. */
  readonly portalIdleMinutes: number;
  /** First webhook retry delay; each further retry doubles it (capped at one hour), for 24 hours. */
  readonly webhookRetryBaseMs: number;
  /** Connect and statement time limits of every PostgreSQL call. */
  readonly dbTimeouts: PostgresTimeouts;
  /** How often the serving process signs a checkpoint of the audit log (when it grew). */
  readonly checkpointIntervalMs: number;
  /** Where checkpoints are anchored (docs/audit.md#anchoring); null: not configured, checkpoints are not anchored. */
  readonly anchor: AnchorConfig | null;
  /** Scheduled refresh of the public feeds (docs/intelligence.md); null: off (the default). */
  readonly feedsRefresh: FeedsRefreshConfig | null;
}

/** Where the scheduled refresh downloads each feed from, and how often. */
export interface FeedsRefreshConfig {
  readonly intervalMs: number;
  /** The HHS portal has no stable export URL: refreshed only when the operator names one. */
  readonly hhsUrl: string | null;
  readonly kevUrl: string;
  /** URL template with `{product}`: every product already imported is refreshed from it. */
  readonly eolUrl: string;
}

const INTERVAL_UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

function feedsRefreshOf(e: z.infer<typeof EnvSchema>): FeedsRefreshConfig | null {
  if (e.HCS_FEEDS_REFRESH === "off" || e.HCS_FEEDS_REFRESH === "0") return null;
  const unit = e.HCS_FEEDS_REFRESH.slice(-1) as keyof typeof INTERVAL_UNIT_MS;
  return {
    intervalMs: Number(e.HCS_FEEDS_REFRESH.slice(0, -1)) * INTERVAL_UNIT_MS[unit],
    hhsUrl: e.HCS_FEED_HHS_URL ?? null,
    kevUrl: e.HCS_FEED_KEV_URL,
    eolUrl: e.HCS_FEED_EOL_URL,
  };
}

/** The EVM chain, contract and key that audit checkpoints are anchored with. */
export interface AnchorConfig extends AnchorEndpoint {
  /** The HcsAuditAnchor contract (as `hcs-server audit anchor-deploy` printed it). */
  readonly contract: `0x${string}`;
  /** How often the chain is polled for finality; failed rounds back off from it. */
  readonly pollMs: number;
}

/** What sending to the chain needs: the node (its URL may embed a provider's API key: never logged), chain, key. */
export interface AnchorEndpoint {
  readonly rpcUrl: string;
  readonly chainId: number;
  /** File holding the operator's secp256k1 private key as hex (owner-only). */
  readonly keyFile: string;
}

/** A configuration problem, reported as one line naming the variable. */
export class ConfigError extends Error {
  readonly code = "invalid_config" as const;
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

function splitHostPort(s: string): { host: string; port: number } {
  const i = s.lastIndexOf(":");
  return { host: s.slice(0, i).replace(/^\[|\]$/g, ""), port: Number(s.slice(i + 1)) };
}

/** Reads and validates the server's environment; throws ConfigError on the first bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, cwd: string): Config {
  // Empty strings mean "unset" (a common shell habit: `HCS_HTTP_PORT= hcs-server serve`).
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in EnvSchema.shape && v !== undefined && v !== ""),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? "environment");
    throw new ConfigError(variable, describeProblem(variable, issue.message, present[variable]));
  }
  const e = parsed.data;
  if (Boolean(e.HCS_TLS_CERT) !== Boolean(e.HCS_TLS_KEY)) {
    throw new ConfigError(
      e.HCS_TLS_CERT ? "HCS_TLS_KEY" : "HCS_TLS_CERT",
      "HCS_TLS_CERT and HCS_TLS_KEY must be set together",
    );
  }
  if (e.HCS_HTTP_PORT !== undefined && e.HCS_HTTP_PORT !== 0 && e.HCS_HTTP_PORT === e.HCS_PORT) {
    throw new ConfigError("HCS_HTTP_PORT", "must differ from HCS_PORT");
  }
  const trustProxy = parseTrustProxy(e.HCS_TRUST_PROXY);
  if (typeof trustProxy === "string") throw new ConfigError("HCS_TRUST_PROXY", trustProxy);
  for (const dns of e.HCS_DNS_SERVERS ?? []) {
    const { host, port: p } = splitHostPort(dns);
    if (isIP(host) === 0) throw new ConfigError("HCS_DNS_SERVERS", `${dns}: DNS servers must be IP addresses`);
    if (p < 1 || p > 65535) throw new ConfigError("HCS_DNS_SERVERS", `${dns}: port out of range`);
  }
  return {
    dataDir: resolve(cwd, e.HCS_DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    host: e.HCS_HOST,
    port: e.HCS_PORT,
    httpPort: e.HCS_HTTP_PORT ?? null,
    tls:
      e.HCS_TLS_CERT && e.HCS_TLS_KEY
        ? { certFile: resolve(cwd, e.HCS_TLS_CERT), keyFile: resolve(cwd, e.HCS_TLS_KEY) }
        : null,
    publicUrl: e.HCS_PUBLIC_URL ?? `https://${urlHostOf(e.HCS_HOST)}:${e.HCS_PORT}`,
    publicUrlExplicit: e.HCS_PUBLIC_URL !== undefined,
    trustProxy,
    contactEmail: e.HCS_CONTACT_EMAIL ?? null,
    connectionLimits: {
      handshakeTimeoutMs: e.HCS_TLS_HANDSHAKE_TIMEOUT_MS,
      headersTimeoutMs: e.HCS_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HCS_KEEP_ALIVE_TIMEOUT_MS,
      maxPerAddress: e.HCS_MAX_CONNECTIONS_PER_ADDRESS,
    },
    allowPrivateTargets: e.HCS_ALLOW_PRIVATE_TARGETS,
    logLevel: e.HCS_LOG_LEVEL,
    dnsServers: e.HCS_DNS_SERVERS ? e.HCS_DNS_SERVERS.map(splitHostPort) : null,
    workerConcurrency: e.HCS_WORKER_CONCURRENCY,
    masterKeyHex: e.HCS_MASTER_KEY ?? null,
    extraCaFile: e.HCS_EXTRA_CA_FILE ? resolve(cwd, e.HCS_EXTRA_CA_FILE) : null,
    scannerDir: e.HCS_SCANNER_DIR ? resolve(cwd, e.HCS_SCANNER_DIR) : BUILT_SCANNER_DIR,
    jobLeaseMs: e.HCS_JOB_LEASE_MS,
    portalIdleMinutes: e.HCS_PORTAL_IDLE_MINUTES,
    webhookRetryBaseMs: e.HCS_WEBHOOK_RETRY_BASE_MS,
    dbTimeouts: { connectMs: e.HCS_DB_CONNECT_TIMEOUT_MS, statementMs: e.HCS_DB_STATEMENT_TIMEOUT_MS },
    checkpointIntervalMs: e.HCS_CHECKPOINT_INTERVAL_S * 1000,
    anchor: anchorConfigOf(e, cwd),
    feedsRefresh: feedsRefreshOf(e),
  };
}

const ANCHOR_VARIABLES = [
  "HCS_ANCHOR_RPC_URL",
  "HCS_ANCHOR_CHAIN_ID",
  "HCS_ANCHOR_KEY_FILE",
  "HCS_ANCHOR_CONTRACT",
] as const;

// A plain-http node elsewhere could be impersonated on the way and report a checkpoint finalized that is not.
function isLocalOrHttps(url: string): boolean {
  const u = new URL(url);
  return u.protocol === "https:" || ["127.0.0.1", "[::1]", "localhost"].includes(u.hostname);
}

/** All four anchoring variables, or none: a partial set is a mistake worth stopping for, naming what is missing. */
function anchorConfigOf(e: z.infer<typeof EnvSchema>, cwd: string): AnchorConfig | null {
  const missing = ANCHOR_VARIABLES.filter((v) => e[v] === undefined);
  if (missing.length === ANCHOR_VARIABLES.length) return null;
  if (missing.length > 0)
    throw new ConfigError(
      missing[0]!,
      `anchoring needs ${ANCHOR_VARIABLES.join(", ")} together; missing: ${missing.join(", ")}`,
    );
  return {
    ...anchorEndpointOf(e, cwd)!,
    contract: e.HCS_ANCHOR_CONTRACT as `0x${string}`,
    pollMs: e.HCS_ANCHOR_POLL_MS,
  };
}

const AnchorEndpointSchema = EnvSchema.pick({
  HCS_ANCHOR_RPC_URL: true,
  HCS_ANCHOR_CHAIN_ID: true,
  HCS_ANCHOR_KEY_FILE: true,
});

function anchorEndpointOf(e: z.infer<typeof AnchorEndpointSchema>, cwd: string): AnchorEndpoint | null {
  if (!e.HCS_ANCHOR_RPC_URL || e.HCS_ANCHOR_CHAIN_ID === undefined || !e.HCS_ANCHOR_KEY_FILE) return null;
  return { rpcUrl: e.HCS_ANCHOR_RPC_URL, chainId: e.HCS_ANCHOR_CHAIN_ID, keyFile: resolve(cwd, e.HCS_ANCHOR_KEY_FILE) };
}

/**
 * The node, chain and key alone, for deploying the anchor contract (before HCS_ANCHOR_CONTRACT can exist). Throws
 * ConfigError naming the first variable that is missing or bad.
 */
export function loadAnchorEndpoint(env: Readonly<Record<string, string | undefined>>, cwd: string): AnchorEndpoint {
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in AnchorEndpointSchema.shape && v !== undefined && v !== ""),
  );
  const parsed = AnchorEndpointSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? "environment");
    throw new ConfigError(variable, describeProblem(variable, issue.message, present[variable]));
  }
  const endpoint = anchorEndpointOf(parsed.data, cwd);
  if (!endpoint) {
    const missing = ANCHOR_VARIABLES.slice(0, 3).filter((v) => present[v] === undefined);
    throw new ConfigError(missing[0]!, `deploying the anchor contract needs ${missing.join(", ")}`);
  }
  return endpoint;
}

/**
 * A value as an error may quote it: whatever could be a credential in a URL — everything up to the last `@` before
 * the query (a user name and password), the query (`?token=…`) and the fragment — replaced by `***`. Works on text
 * that is not a valid URL too (a value is quoted because it failed validation), so it cuts rather than parses.
 */
export function withoutUrlCredentials(value: string): string {
  const end = value.search(/[?#]/);
  let base = end < 0 ? value : value.slice(0, end);
  const at = base.lastIndexOf("@");
  if (at >= 0) {
    const slashes = base.indexOf("//");
    const from = slashes >= 0 && slashes < at ? slashes + 2 : 0;
    base = `${base.slice(0, from)}***${base.slice(at)}`;
  }
  if (end < 0) return base;
  return `${base}${value[end] === "?" ? "?***" : ""}${value.includes("#", end) ? "#***" : ""}`;
}

/** What is wrong with a variable, quoting the value it had only when that value is not a secret. */
function describeProblem(variable: string, problem: string, value: string | undefined): string {
  if (value === undefined) return problem;
  if (SECRET_VARIABLES.has(variable)) return `${problem} (the value is not shown: it is or may hold a secret)`;
  const redacted = withoutUrlCredentials(value);
  const shown = redacted.length > 60 ? `${redacted.slice(0, 60)}…` : redacted;
  return `${problem} (got ${JSON.stringify(shown)})`;
}

/** The variables and their meaning, for `hcs-server --help` and docs/operations.md. */
export const CONFIG_VARIABLES: readonly { name: keyof typeof EnvSchema.shape; default: string; meaning: string }[] = [
  {
    name: "HCS_DATA_DIR",
    default: "./.hcs-data",
    meaning: "Data directory: embedded SQLite database, TLS material, master key",
  },
  {
    name: "DATABASE_URL",
    default: "(unset: embedded SQLite)",
    meaning: "PostgreSQL URL; set it to share one database between several server and worker processes",
  },
  { name: "HCS_HOST", default: "127.0.0.1", meaning: "Address the HTTPS listener binds" },
  { name: "HCS_PORT", default: "8443", meaning: "HTTPS port (0 picks a free port)" },
  {
    name: "HCS_HTTP_PORT",
    default: "(unset: no plain listener)",
    meaning: "Optional plain-HTTP port; it answers every request 403 https_required",
  },
  {
    name: "HCS_TLS_CERT",
    default: "(unset: self-managed CA)",
    meaning: "PEM certificate chain file; with HCS_TLS_KEY replaces the self-managed CA",
  },
  { name: "HCS_TLS_KEY", default: "(unset)", meaning: "PEM private key file for HCS_TLS_CERT" },
  {
    name: "HCS_PUBLIC_URL",
    default: "https://HCS_HOST:HCS_PORT",
    meaning: "https URL clients use to reach the server (put in deploy tokens, agent card, install commands)",
  },
  {
    name: "HCS_TRUST_PROXY",
    default: "0",
    meaning:
      "Proxies trusted for X-Forwarded-For/-Proto: a hop count (1 = one load balancer) or a comma list of proxy addresses/CIDRs",
  },
  {
    name: "HCS_CONTACT_EMAIL",
    default: "(unset: answers name no address)",
    meaning:
      "Address customers write to for credits, a plan change or Enterprise terms: in the agent card, GET /v1/a2a/account and every 402/403 that points to an upgrade",
  },
  {
    name: "HCS_TLS_HANDSHAKE_TIMEOUT_MS",
    default: String(DEFAULT_CONNECTION_LIMITS.handshakeTimeoutMs),
    meaning: "Longest time from a TCP connection to the end of its TLS handshake; then it is closed",
  },
  {
    name: "HCS_HEADERS_TIMEOUT_MS",
    default: String(DEFAULT_CONNECTION_LIMITS.headersTimeoutMs),
    meaning:
      "Longest time for a request's head (request line and headers) to arrive, from the handshake or the request's first byte; then 408 and the connection is closed",
  },
  {
    name: "HCS_KEEP_ALIVE_TIMEOUT_MS",
    default: String(DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs),
    meaning:
      "A connection with no request in progress is closed after this long (behind a load balancer: more than its idle timeout)",
  },
  {
    name: "HCS_MAX_CONNECTIONS_PER_ADDRESS",
    default: String(DEFAULT_CONNECTION_LIMITS.maxPerAddress),
    meaning:
      "Connections open at once from one client address (IPv6: per /64); more are closed before the handshake. Trusted proxies are not capped",
  },
  {
    name: "HCS_ALLOW_PRIVATE_TARGETS",
    default: "0",
    meaning: "1 to let scans and callbacks reach private, loopback and link-local addresses (tests, demos, labs)",
  },
  { name: "HCS_LOG_LEVEL", default: "info", meaning: "fatal, error, warn, info, debug, trace or silent" },
  {
    name: "HCS_DNS_SERVERS",
    default: "(system resolvers)",
    meaning: "Comma-separated ip:port DNS servers for the external scan",
  },
  { name: "HCS_WORKER_CONCURRENCY", default: "4", meaning: "Jobs one worker process runs at once" },
  {
    name: "HCS_EXTRA_CA_FILE",
    default: "(system roots only)",
    meaning: "PEM file of extra CAs trusted for outbound TLS (external scan, webhooks): labs, tests, the demo",
  },
  {
    name: "HCS_FEEDS_REFRESH",
    default: "off",
    meaning: "Scheduled refresh of the threat-intelligence feeds: off, or an interval (30m, 6h, 1d)",
  },
  {
    name: "HCS_FEED_HHS_URL",
    default: "(unset: not refreshed)",
    meaning: "https URL of an HHS OCR breach-portal CSV export for the scheduled refresh",
  },
  {
    name: "HCS_FEED_KEV_URL",
    default: "https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json",
    meaning: "https URL of the CISA KEV catalogue for the scheduled refresh",
  },
  {
    name: "HCS_FEED_EOL_URL",
    default: "https://endoflife.date/api/{product}.json",
    meaning: "https URL template of endoflife.date product data; every imported product is refreshed from it",
  },
  {
    name: "HCS_SCANNER_DIR",
    default: "(the server's dist/scanner-package)",
    meaning:
      "Directory holding hcs-scanner-<version>.tgz, served at /downloads/ for npm install (npm run build puts it there)",
  },
  {
    name: "HCS_JOB_LEASE_MS",
    default: "30000",
    meaning: "How long a job stays claimed without a heartbeat before another worker takes it over",
  },
  {
    name: "HCS_PORTAL_IDLE_MINUTES",
    default: "15",
    meaning: "Minutes without activity after which a customer portal session is signed out (docs/portal.md)",
  },
  {
    name: "HCS_WEBHOOK_RETRY_BASE_MS",
    default: "10000",
    meaning: "First webhook retry delay; doubles per attempt (max 1 h) for 24 h",
  },
  {
    name: "HCS_MASTER_KEY",
    default: "(generated in the data dir)",
    meaning: "64 hex digits; encrypts webhook secrets at rest. Set the same value on every instance sharing a database",
  },
  {
    name: "HCS_DB_CONNECT_TIMEOUT_MS",
    default: "3000",
    meaning: "PostgreSQL: longest wait to open a connection or get a free one from the pool",
  },
  {
    name: "HCS_DB_STATEMENT_TIMEOUT_MS",
    default: "5000",
    meaning: "PostgreSQL: statement_timeout of every statement (the client gives up 1 s later); migrations are exempt",
  },
  {
    name: "HCS_CHECKPOINT_INTERVAL_S",
    default: "86400",
    meaning:
      "Seconds between signed checkpoints of the audit log (one a day by default; none while the log has not grown)",
  },
  {
    name: "HCS_ANCHOR_RPC_URL",
    default: "(unset: checkpoints not anchored)",
    meaning:
      "JSON-RPC URL of the EVM (layer-2) chain checkpoints are anchored on: https, or http to this machine; never echoed",
  },
  {
    name: "HCS_ANCHOR_CHAIN_ID",
    default: "(unset)",
    meaning: "That chain's id; nothing is sent to a node serving another",
  },
  {
    name: "HCS_ANCHOR_KEY_FILE",
    default: "(unset)",
    meaning: "Owner-only file with the operator's secp256k1 private key (hex) that sends anchors and owns the contract",
  },
  {
    name: "HCS_ANCHOR_CONTRACT",
    default: "(unset)",
    meaning:
      "Address of the anchor contract (`hcs-server audit anchor-deploy`); the four HCS_ANCHOR_ variables go together",
  },
  {
    name: "HCS_ANCHOR_POLL_MS",
    default: "15000",
    meaning: "How often anchoring checks the chain for finality; failed rounds back off from it (capped at 15 min)",
  },
];

/** The listen address as a URL host: IPv6 in brackets, and the wildcard 0.0.0.0 as loopback (reachable locally). */
export function urlHostOf(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
}
