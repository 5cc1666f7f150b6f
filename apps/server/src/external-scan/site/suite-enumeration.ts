import type { TlsProbeIO, TlsVersion } from "../io/types.js";
import { CIPHER_SUITES, type SuiteProperties, suiteByName } from "./cipher-suites.js";

/** How much one site's suite enumeration may cost. */
export interface SuiteEnumerationLimits {
  /** Handshakes in all; past it the versions not finished are reported incomplete. */
  readonly maxHandshakes: number;
  /** Handshakes in flight at once. */
  readonly concurrency: number;
}

/**
 * A server accepting every suite this client can offer at every version takes 148 handshakes (one per suite: a class
 * that runs out needs no refusal); the sample practices take 12 to 37. Six at a time keeps a site's enumeration to a
 * few seconds at internet round-trip times without looking like a flood.
 */
export const DEFAULT_SUITE_LIMITS: SuiteEnumerationLimits = { maxHandshakes: 200, concurrency: 6 };

export interface VersionSuites {
  /** IANA names of the suites the server accepted, in the table's order. */
  readonly accepted: string[];
  /** Every class was offered down to a refusal. */
  readonly complete: boolean;
  /** Why it is incomplete. */
  readonly detail?: string;
}

export interface SuiteEnumeration {
  readonly byVersion: Partial<Record<TlsVersion, VersionSuites>>;
  readonly handshakes: number;
  /** Known suites (IANA names) negotiable at the enumerated versions that this client's TLS library cannot offer. */
  readonly notTestable: string[];
}

/**
 * Suites are offered by class so that classes run in parallel (one class's refusal does not end another's): by key
 * exchange, and AEAD apart from the rest, so that no chain of handshakes is much longer than the others.
 */
function suiteClass(suite: SuiteProperties): string {
  if (suite.authentication === "anonymous") return "anonymous";
  if (suite.keyExchange === "TLS1.3") return "TLS1.3";
  const kx = suite.keyExchange === "ECDHE" || suite.keyExchange === "DHE" ? suite.keyExchange : "static";
  return `${kx}/${suite.mac === "AEAD" ? "aead" : "other"}`;
}

interface Chain {
  readonly version: TlsVersion;
  readonly remaining: SuiteProperties[];
  readonly accepted: Set<string>;
  incomplete?: string;
}

/**
 * Which suites the server accepts at each version, found as testssl.sh does: offer a whole class, note the suite
 * the server picks, offer the class again without it, until the server refuses. That costs one handshake per
 * accepted suite plus one per class, never one per known suite.
 */
export async function enumerateSuites(deps: {
  readonly tls: TlsProbeIO;
  readonly address: string;
  readonly port: number;
  readonly servername: string;
  readonly versions: readonly TlsVersion[];
  readonly signal: AbortSignal;
  readonly limits?: SuiteEnumerationLimits;
}): Promise<SuiteEnumeration> {
  const limits = deps.limits ?? DEFAULT_SUITE_LIMITS;
  const notTestable = new Set<string>();
  const chains: Chain[] = [];
  for (const version of deps.versions) {
    const classes = new Map<string, SuiteProperties[]>();
    for (const suite of CIPHER_SUITES) {
      if (!suite.versions.includes(version)) continue;
      if (!deps.tls.canOffer(suite.openssl)) {
        notTestable.add(suite.iana);
        continue;
      }
      const key = suiteClass(suite);
      classes.set(key, [...(classes.get(key) ?? []), suite]);
    }
    for (const suites of classes.values()) chains.push({ version, remaining: suites, accepted: new Set() });
  }

  let handshakes = 0;
  const walk = async (chain: Chain) => {
    while (chain.remaining.length > 0) {
      if (handshakes >= limits.maxHandshakes) {
        chain.incomplete = `handshake budget of ${limits.maxHandshakes} spent`;
        return;
      }
      handshakes++;
      const outcome = await deps.tls
        .offerSuites({
          address: deps.address,
          port: deps.port,
          servername: deps.servername,
          version: chain.version,
          suites: chain.remaining.map((s) => s.openssl),
          signal: deps.signal,
        })
        .catch((error: unknown) => ({ ok: false as const, code: "error" as const, detail: String(error) }));
      if (!outcome.ok) {
        if (outcome.code !== "handshake_failed")
          chain.incomplete = `${outcome.code}${outcome.detail ? ` (${outcome.detail})` : ""}`;
        return;
      }
      const chosen = suiteByName(outcome.suite);
      const index = chosen ? chain.remaining.indexOf(chosen) : -1;
      if (!chosen || index < 0) {
        // A server that answers with a suite it was not offered breaks the protocol; stop rather than loop.
        chain.incomplete = `server chose ${outcome.suite}, which was not offered`;
        return;
      }
      chain.accepted.add(chosen.iana);
      chain.remaining.splice(index, 1);
    }
  };
  const queue = [...chains];
  await Promise.all(
    Array.from({ length: Math.min(limits.concurrency, queue.length) }, async () => {
      for (let chain = queue.shift(); chain; chain = queue.shift()) await walk(chain);
    }),
  );

  const byVersion: Partial<Record<TlsVersion, VersionSuites>> = {};
  for (const version of deps.versions) {
    const own = chains.filter((c) => c.version === version);
    const accepted = new Set(own.flatMap((c) => [...c.accepted]));
    const problems = own.flatMap((c) => (c.incomplete ? [c.incomplete] : []));
    byVersion[version] = {
      accepted: CIPHER_SUITES.filter((s) => accepted.has(s.iana)).map((s) => s.iana),
      complete: problems.length === 0,
      ...(problems.length > 0 ? { detail: [...new Set(problems)].join("; ") } : {}),
    };
  }
  return { byVersion, handshakes, notTestable: [...notTestable] };
}
