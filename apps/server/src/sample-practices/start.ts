import { withNpiCheckDigit } from "@hcs/protocol";
import { startZoneDnsServer, type ZoneDnsServer } from "./dns-server.js";
import { SamplePracticesError } from "./errors.js";
import { harbor } from "./practices/harbor.js";
import { lakeside } from "./practices/lakeside.js";
import { MAIL_PROVIDER_ORIGINS, mailProviderRecords } from "./practices/mail-providers.js";
import { maple } from "./practices/maple.js";
import { riverside } from "./practices/riverside.js";
import { summit } from "./practices/summit.js";
import { createSampleCa, issueSampleCertificate, rsaKey, SAMPLE_REVOCATION } from "./sample-ca.js";
import { type RunningSite, startSite } from "./site-server.js";
import type { DkimKeys, PracticeSpec, SamplePractice } from "./types.js";
import type { ZoneRecord } from "./zone.js";

/** The sample practices, in the order they are started and listed. */
export const PRACTICE_SPECS: readonly PracticeSpec[] = [lakeside, maple, riverside, harbor, summit];

export interface SamplePracticesOptions {
  /**
   * First three octets of the practices' loopback addresses (default "127.0.10"): practice n listens on
   * `<prefix>.<n>`. Give concurrent sets (parallel test files) different prefixes: each needs ports 80 and 443.
   */
  readonly loopbackPrefix?: string;
  /** UDP/TCP port of the DNS server on 127.0.0.1; default any free port. */
  readonly dnsPort?: number;
  /** Certificates are issued relative to this time (default now). */
  readonly now?: Date;
}

export interface SamplePractices {
  /** The DNS server that answers for every sample domain (point the scan's resolver here, and only here). */
  readonly dns: { readonly host: "127.0.0.1"; readonly port: number };
  /** The sample CA certificate (PEM) that issued every practice's certificate: pass it as trustedCaPem. */
  readonly caPem: string;
  readonly practices: readonly SamplePractice[];
  /** TCP connections each practice's listeners accepted, by practice NPI and port. */
  connectionCounts(npi: string): ReadonlyMap<number, number>;
  /**
   * Publishes a TXT record in the sample zones from now on (a practice proving control of its domain); the name must
   * be under a practice's domain. `withdrawTxt` removes every TXT record of the name.
   */
  publishTxt(name: string, text: string): void;
  withdrawTxt(name: string): void;
  /** Serves a file on a practice's HTTPS site from now on (e.g. under /.well-known/); null takes it down. */
  publishFile(npi: string, path: string, body: string | null): void;
  stop(): Promise<void>;
}

const DAY_MS = 86_400_000;

async function dkimKeys(): Promise<DkimKeys> {
  const [rsa2048, rsa1024] = await Promise.all([rsaKey(2048), rsaKey(1024)]);
  return { rsa2048: rsa2048.publicKeyDer.toString("base64"), rsa1024: rsa1024.publicKeyDer.toString("base64") };
}

/**
 * Starts the sample practices: one local DNS server on 127.0.0.1 for all their zones (under the reserved .test
 * TLD) and, per practice, HTTPS on 443, HTTP on 80 and any risky listeners on its own loopback address, with a
 * certificate from a sample CA created for this run. Everything listens on loopback only.
 */
export async function startSamplePractices(options: SamplePracticesOptions = {}): Promise<SamplePractices> {
  const prefix = options.loopbackPrefix ?? "127.0.10";
  if (!/^127\.\d{1,3}\.\d{1,3}$/.test(prefix) || prefix.split(".").some((o) => Number(o) > 255)) {
    throw new SamplePracticesError("invalid_options", `loopbackPrefix must be 127.x.y, got ${prefix}`);
  }
  const now = options.now ?? new Date();
  // The CA predates every certificate it issues, the expired ones included.
  const [ca, keys] = await Promise.all([
    createSampleCa("HCS Sample Practices CA", new Date(now.getTime() - 500 * DAY_MS)),
    dkimKeys(),
  ]);
  const certificates = await Promise.all(
    PRACTICE_SPECS.map((spec) =>
      issueSampleCertificate(
        ca,
        spec.certificate.hosts ?? [...new Set([spec.websiteHost, spec.domain])],
        new Date(now.getTime() - spec.certificate.issuedDaysAgo * DAY_MS),
        spec.certificate.days,
        {
          ...(spec.certificate.signatureHash ? { signatureHash: spec.certificate.signatureHash } : {}),
          ...(spec.certificate.revocationInfo === false ? {} : { revocation: SAMPLE_REVOCATION }),
        },
      ),
    ),
  );
  const sites = new Map<string, RunningSite>();
  const records: ZoneRecord[] = [...mailProviderRecords()];
  const practices: SamplePractice[] = [];
  let dns: ZoneDnsServer | undefined;

  const stop = async () => {
    await Promise.all([...sites.values()].map((s) => s.stop()));
    await dns?.stop();
  };
  try {
    for (const [index, spec] of PRACTICE_SPECS.entries()) {
      const address = `${prefix}.${spec.hostOctet}`;
      const certificate = certificates[index]!;
      const npi = withNpiCheckDigit(spec.npiPrefix);
      sites.set(npi, await startSite(spec.site, address, certificate));
      records.push(...spec.zone(address, keys));
      practices.push({
        npi,
        name: spec.name,
        domain: spec.domain,
        website: `https://${spec.websiteHost}/`,
        address,
        expected: spec.expected,
        internal: spec.internal ?? null,
      });
    }
    dns = await startZoneDnsServer(
      { origins: [...PRACTICE_SPECS.map((p) => p.domain), ...MAIL_PROVIDER_ORIGINS], records },
      { host: "127.0.0.1", ...(options.dnsPort ? { port: options.dnsPort } : {}) },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    dns: { host: "127.0.0.1", port: dns.port },
    caPem: ca.certPem,
    practices,
    connectionCounts: (npi) => sites.get(npi)?.connections ?? new Map(),
    publishTxt(name, text) {
      const n = name.toLowerCase().replace(/\.$/, "");
      if (!PRACTICE_SPECS.some((p) => n === p.domain || n.endsWith(`.${p.domain}`)))
        throw new SamplePracticesError("invalid_options", `${name} is not under a sample practice's domain`);
      // The DNS server answers from this array at query time.
      records.push({ name: n, type: "TXT", text });
    },
    withdrawTxt(name) {
      const n = name.toLowerCase().replace(/\.$/, "");
      for (let i = records.length - 1; i >= 0; i--) {
        const r = records[i]!;
        if (r.name === n && r.type === "TXT") records.splice(i, 1);
      }
    },
    publishFile(npi, path, body) {
      const site = sites.get(npi);
      if (!site) throw new SamplePracticesError("invalid_options", `no sample practice ${npi}`);
      site.publish(
        path,
        body === null ? null : { html: body, headers: { "content-type": "text/plain; charset=utf-8" } },
      );
    },
    stop,
  };
}
