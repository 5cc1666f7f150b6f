import type { Grade, Npi } from "@hcs/protocol";
import type { InternalHalf } from "./internal-half.js";
import type { SiteSpec } from "./site-server.js";
import type { ZoneRecord } from "./zone.js";

/** A sample practice as tests, the demo and the benchmark use it. */
export interface SamplePractice {
  readonly npi: Npi;
  readonly name: string;
  /** Mail domain, under the reserved .test TLD (RFC 6761): it can never resolve on the internet. */
  readonly domain: string;
  readonly website: string;
  /** The practice's own loopback address (its HTTPS, HTTP and risky listeners bind here). */
  readonly address: string;
  /** What a scan of it must show. */
  readonly expected: {
    readonly grades: readonly Grade[];
    /** check_ids that must appear among the external findings. */
    readonly findings: readonly string[];
  };
  /** Its scanner host's persona and its restore tests (requirements 6 and 13), or null: the demo runs a real scanner. */
  readonly internal: InternalHalf | null;
}

/** Keys generated at start-up for a practice's DKIM records. */
export interface DkimKeys {
  /** base64 SubjectPublicKeyInfo of a 2048-bit RSA key. */
  readonly rsa2048: string;
  /** base64 SubjectPublicKeyInfo of a 1024-bit RSA key. */
  readonly rsa1024: string;
}

/** How one sample practice is built: its DNS zone, certificate and web host. */
export interface PracticeSpec {
  /** Nine digits; the NPI is these plus the CMS check digit. */
  readonly npiPrefix: string;
  readonly name: string;
  readonly domain: string;
  readonly websiteHost: string;
  /** Last octet of its loopback address. */
  readonly hostOctet: number;
  readonly zone: (address: string, keys: DkimKeys) => ZoneRecord[];
  readonly certificate: {
    /** Names on the certificate; default the domain and the website host. */
    readonly hosts?: readonly string[];
    /** Validity in days from issue. */
    readonly days: number;
    /** Issued this many days before the sample starts (an expired certificate is issued long ago). */
    readonly issuedDaysAgo: number;
    /** Signature hash; default sha256 (sha1 for a site still on an old in-house CA's certificate). */
    readonly signatureHash?: "sha256" | "sha1";
    /** OCSP and CRL pointers in the certificate, as public CAs include them; default true. */
    readonly revocationInfo?: boolean;
  };
  readonly site: SiteSpec;
  readonly expected: SamplePractice["expected"];
  readonly internal?: InternalHalf;
}
