import type { HostResolution } from "../guard.js";
import { TLS_VERSIONS, type TlsHandshakeOutcome, type TlsProbeIO, type TlsVersion } from "../io/types.js";
import type { ScanTarget } from "../target.js";
import type { PageFetch, PageFetcher } from "./page-fetch.js";
import { enumerateSuites, type SuiteEnumeration } from "./suite-enumeration.js";

/** The TLS handshakes of the website, one per version, or why none could be tried. */
export interface TlsHandshakeSet {
  readonly host: HostResolution;
  readonly outcomes: Partial<Record<TlsVersion, TlsHandshakeOutcome>>;
}

/** The suites the website accepts at each version it negotiated, or why none could be enumerated. */
export interface TlsSuiteSet {
  readonly host: HostResolution;
  readonly outcomes: TlsHandshakeSet["outcomes"];
  /** Null when the host was refused or no version was negotiated. */
  readonly enumeration: SuiteEnumeration | null;
}

/** Probes of the website that several checks read; each runs once per scan, when a check first asks. */
export interface SiteProbes {
  host(): Promise<HostResolution>;
  /** The website over HTTPS, redirects followed. */
  httpsHome(): Promise<PageFetch>;
  /** The site's root over plain HTTP, redirects followed. */
  httpHome(): Promise<PageFetch>;
  tlsHandshakes(): Promise<TlsHandshakeSet>;
  /** Suite enumeration over the versions `tlsHandshakes` found; runs after it, once. */
  tlsSuites(): Promise<TlsSuiteSet>;
  readonly fetchPage: PageFetcher;
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= fn();
    return pending;
  };
}

export function createSiteProbes(deps: {
  readonly target: ScanTarget;
  readonly guard: (host: string) => Promise<HostResolution>;
  readonly tls: TlsProbeIO;
  readonly fetchPage: PageFetcher;
  readonly signal: AbortSignal;
}): SiteProbes {
  const { target } = deps;
  const host = once(() => deps.guard(target.siteHost));
  const hostForUrl = target.siteHost.includes(":") ? `[${target.siteHost}]` : target.siteHost;
  const tlsHandshakes = once(async (): Promise<TlsHandshakeSet> => {
    const resolution = await host();
    if (!resolution.ok) return { host: resolution, outcomes: {} };
    const address = resolution.addresses[0]!;
    const results = await Promise.all(
      TLS_VERSIONS.map((version) =>
        deps.tls
          .handshake({ address, port: target.httpsPort, servername: target.siteHost, version, signal: deps.signal })
          .catch((error: unknown): TlsHandshakeOutcome => ({ ok: false, code: "error", detail: String(error) })),
      ),
    );
    return { host: resolution, outcomes: Object.fromEntries(TLS_VERSIONS.map((v, i) => [v, results[i]!])) };
  });
  return {
    host,
    fetchPage: deps.fetchPage,
    httpsHome: once(() => deps.fetchPage(target.websiteUrl)),
    httpHome: once(() => deps.fetchPage(`http://${hostForUrl}${target.httpPort === 80 ? "" : `:${target.httpPort}`}/`)),
    tlsHandshakes,
    tlsSuites: once(async (): Promise<TlsSuiteSet> => {
      const { host: resolution, outcomes } = await tlsHandshakes();
      const versions = TLS_VERSIONS.filter((v) => outcomes[v]?.ok === true);
      if (!resolution.ok || versions.length === 0) return { host: resolution, outcomes, enumeration: null };
      const enumeration = await enumerateSuites({
        tls: deps.tls,
        // The address the version handshakes used: the guard cleared it, and the same server answers.
        address: resolution.addresses[0]!,
        port: target.httpsPort,
        servername: target.siteHost,
        versions,
        signal: deps.signal,
      });
      return { host: resolution, outcomes, enumeration };
    }),
  };
}
