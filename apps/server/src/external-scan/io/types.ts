/**
 * The only doors the external scan has to the network. Every operation takes an explicit address (never a name to
 * resolve on its own), so the address policy applied by the scan before calling is the whole truth about where
 * traffic goes. Failures are results with a code, never exceptions: a scan of an unreachable site is a normal scan.
 */

/** Why a DNS query gave no records. `nxdomain` and `nodata` are answers; the others mean we do not know. */
export type DnsFailureCode =
  | "nxdomain"
  | "nodata"
  | "timeout"
  | "servfail"
  | "server_refused"
  | "unreachable"
  | "error";

export type DnsAnswer<T> =
  | { readonly ok: true; readonly records: T }
  | { readonly ok: false; readonly code: DnsFailureCode; readonly detail?: string };

export interface MxRecord {
  readonly exchange: string;
  readonly priority: number;
}

export interface DnsIO {
  /** TXT records of `name`, each record's character-strings joined (RFC 7208 §3.3). */
  txt(name: string, signal: AbortSignal): Promise<DnsAnswer<string[]>>;
  mx(name: string, signal: AbortSignal): Promise<DnsAnswer<MxRecord[]>>;
  /** A and AAAA addresses of `name`, IPv4 first. */
  addresses(name: string, signal: AbortSignal): Promise<DnsAnswer<string[]>>;
}

/** Why a connection-level operation failed. */
export type NetFailureCode =
  | "timeout"
  | "connection_refused"
  | "unreachable"
  | "reset"
  | "handshake_failed"
  | "protocol_error"
  | "aborted"
  | "error";

export const TLS_VERSIONS = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"] as const;
export type TlsVersion = (typeof TLS_VERSIONS)[number];

/** What the scan keeps of a certificate: public facts only. */
export interface CertificateSummary {
  readonly subject_cn: string | null;
  /** DNS and IP subject alternative names, as `DNS:name` / `IP Address:addr` entries. */
  readonly subject_alt_names: string[];
  readonly issuer_cn: string | null;
  readonly issuer_o: string | null;
  readonly valid_from: string;
  readonly valid_to: string;
  readonly serial: string;
  readonly fingerprint256: string;
  readonly key_type: "rsa" | "ec" | "other";
  readonly key_bits: number | null;
  /** Subject equals issuer and the certificate verifies with its own key. */
  readonly self_signed: boolean;
  /** The issuer's signature algorithm (`sha256WithRSAEncryption`, `ecdsa-with-SHA384`…; the OID when unknown). */
  readonly signature_algorithm: string;
  /** OCSP responder URLs from the Authority Information Access extension (RFC 5280 §4.2.2.1); null if unread. */
  readonly ocsp_urls: string[] | null;
  /** URLs of the CRL distribution points extension (RFC 5280 §4.2.1.13); null if unread. */
  readonly crl_urls: string[] | null;
}

export interface TlsHandshakeRequest {
  readonly address: string;
  readonly port: number;
  /** SNI and the name the certificate is checked against. */
  readonly servername: string;
  /** Offer exactly this version (min = max), to learn which versions the server accepts. */
  readonly version: TlsVersion;
  readonly signal: AbortSignal;
}

export type TlsHandshakeOutcome =
  | {
      readonly ok: true;
      readonly version: TlsVersion;
      readonly cipher: string;
      /** Chain verified against the system roots plus the configured extra CAs. */
      readonly authorized: boolean;
      /** OpenSSL's verification error code when not authorized (e.g. CERT_HAS_EXPIRED). */
      readonly authorization_error: string | null;
      /** Leaf first. */
      readonly chain: CertificateSummary[];
    }
  | { readonly ok: false; readonly code: NetFailureCode; readonly detail?: string };

export interface TlsSuiteOfferRequest {
  readonly address: string;
  readonly port: number;
  readonly servername: string;
  readonly version: TlsVersion;
  /** OpenSSL names of the only suites offered (they must all be negotiable at `version`). */
  readonly suites: readonly string[];
  readonly signal: AbortSignal;
}

/** The suite the server chose from an offer (its IANA name), or why there was none. */
export type TlsSuiteOutcome =
  | { readonly ok: true; readonly suite: string }
  | { readonly ok: false; readonly code: NetFailureCode; readonly detail?: string };

export interface TlsProbeIO {
  handshake(request: TlsHandshakeRequest): Promise<TlsHandshakeOutcome>;
  /** One handshake offering exactly `suites`, to learn which of them the server accepts; nothing else is read. */
  offerSuites(request: TlsSuiteOfferRequest): Promise<TlsSuiteOutcome>;
  /** Whether this client's TLS library can put the suite (OpenSSL name) in a ClientHello at all. */
  canOffer(suite: string): boolean;
}

export interface HttpRequest {
  /** Absolute http(s) URL; its host is sent as Host and SNI, the connection goes to `address`. */
  readonly url: string;
  readonly address: string;
  readonly signal: AbortSignal;
}

export type HttpOutcome =
  | {
      readonly ok: true;
      readonly status: number;
      /** Lower-case names; repeated headers joined with ", " (set-cookie is kept apart). */
      readonly headers: Readonly<Record<string, string>>;
      readonly set_cookies: string[];
      /** Decoded text for text-like content types, "" otherwise. */
      readonly body: string;
      /** The body was cut at the size cap. */
      readonly truncated: boolean;
    }
  | { readonly ok: false; readonly code: NetFailureCode; readonly detail?: string };

export interface HttpIO {
  /** One GET request, redirects not followed (the scan follows them itself, re-checking every new host). */
  get(request: HttpRequest): Promise<HttpOutcome>;
}

export type TcpPortState = "open" | "closed" | "filtered" | "unreachable" | "error";

export interface TcpConnectRequest {
  readonly address: string;
  readonly port: number;
  readonly signal: AbortSignal;
}

export interface TcpIO {
  /** Opens and immediately closes a TCP connection; nothing is sent. */
  connect(request: TcpConnectRequest): Promise<{ readonly state: TcpPortState; readonly detail?: string }>;
}

/** Everything the external scan needs from the outside world, injected. */
export interface ExternalScanIO {
  readonly dns: DnsIO;
  readonly tls: TlsProbeIO;
  readonly http: HttpIO;
  readonly tcp: TcpIO;
}
