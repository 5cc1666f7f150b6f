import { z } from "zod";
import { checkFactsOf, type ExternalScanResult } from "../run-external-scan.js";
import { suiteByName } from "../site/cipher-suites.js";

/**
 * The items HCS and testssl.sh (3.0, Debian's package) both judge about a site's TLS, and how each side's output
 * is read for them. One documented mapping (CHECKS.md, "Agreement with testssl.sh"); the agreement test runs both
 * on the sample practices and compares item by item.
 */
export const TestsslEntrySchema = z.object({
  id: z.string(),
  severity: z.string(),
  finding: z.string(),
});
export type TestsslEntry = z.infer<typeof TestsslEntrySchema>;
/** What `testssl --jsonfile` writes: a flat array of entries. */
export const TestsslJsonSchema = z.array(TestsslEntrySchema.passthrough());

const VERSIONS = [
  ["TLS 1.0", "TLS1", "TLS 1 "],
  ["TLS 1.1", "TLS1_1", "TLS 1.1 "],
  ["TLS 1.2", "TLS1_2", "TLS 1.2 "],
  ["TLS 1.3", "TLS1_3", "TLS 1.3 "],
] as const;

/** One compared item: a yes/no verdict (or a suite list) from each side. */
export interface AgreementRow {
  readonly item: string;
  readonly hcs: string;
  readonly testssl: string;
  readonly agree: boolean;
}

const yesNo = (b: boolean) => (b ? "yes" : "no");

/** The verdicts testssl.sh's JSON gives for the compared items. */
export function readTestssl(entries: readonly TestsslEntry[]) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const offered = (id: string) => byId.get(id)?.finding.startsWith("offered") ?? false;
  // Per-cipher lines ("TLS 1.2   xc030   ECDHE-RSA-AES256-GCM-SHA384 … TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384").
  const suites = (prefix: string) =>
    entries
      .filter((e) => e.id.startsWith("cipher-") && e.finding.startsWith(prefix))
      .map((e) => e.finding.trim().split(/\s+/).at(-1)!);
  const allSuites = VERSIONS.flatMap(([, , prefix]) => suites(prefix));
  const signature = byId.get("cert_signatureAlgorithm");
  return {
    protocols: Object.fromEntries(VERSIONS.map(([name, id]) => [name, offered(id)])),
    suites: Object.fromEntries(VERSIONS.map(([name, , prefix]) => [name, suites(prefix)])),
    // testssl 3.0 gives no verdict on key exchange; its per-cipher list names it ("RSA" = static key transport).
    noForwardSecrecy: allSuites.some((s) => s.startsWith("TLS_RSA_")),
    // "Obsolete CBC ciphers (AES, ARIA etc.)".
    cbc: offered("cipherlist_AVERAGE"),
    insecure: [
      "cipherlist_NULL",
      "cipherlist_aNULL",
      "cipherlist_EXPORT",
      "cipherlist_LOW",
      "cipherlist_3DES_IDEA",
    ].some(offered),
    weakSignature: signature !== undefined && /SHA1|MD5|MD2/i.test(signature.finding),
    noRevocation:
      byId.get("cert_revocation")?.finding.startsWith("Neither CRL nor OCSP") ??
      (byId.get("cert_crlDistributionPoints")?.finding === "--" && byId.get("cert_ocspURL")?.finding === "--"),
  };
}

const VersionsFactsSchema = z.object({ offered: z.array(z.string()).optional() });
const CipherFactsSchema = z.object({
  versions: z.record(z.string(), z.object({ accepted: z.array(z.string()) })).optional(),
  not_testable_by_this_client: z.array(z.string()).optional(),
});

/** The same verdicts from an HCS external scan result. */
export function readHcs(result: ExternalScanResult) {
  const has = (checkId: string) => result.findings.some((f) => f.check_id === checkId);
  const versionsFacts = VersionsFactsSchema.parse(checkFactsOf(result, "app.tls_versions") ?? {});
  const cipherFacts = CipherFactsSchema.parse(checkFactsOf(result, "app.tls_ciphers") ?? {});
  return {
    protocols: Object.fromEntries(VERSIONS.map(([name]) => [name, versionsFacts?.offered?.includes(name) ?? false])),
    suites: Object.fromEntries(VERSIONS.map(([name]) => [name, cipherFacts?.versions?.[name]?.accepted ?? []])),
    notTestable: new Set(cipherFacts?.not_testable_by_this_client ?? []),
    noForwardSecrecy: has("app.tls_ciphers.no_forward_secrecy"),
    cbc: has("app.tls_ciphers.cbc_mode"),
    insecure: has("app.tls_ciphers.insecure"),
    weakSignature: has("app.certificate.weak_signature"),
    noRevocation: has("app.certificate.no_revocation_info"),
  };
}

/**
 * Item-by-item comparison. Suite lists are compared over the suites both sides can test: a suite testssl finds that
 * this client cannot offer (RC4, 3DES…) counts as agreement only because HCS lists it as not testable, never as
 * "not accepted"; a suite testssl finds that HCS's table does not know is a disagreement.
 */
export function compareWithTestssl(hcsResult: ExternalScanResult, entries: readonly TestsslEntry[]): AgreementRow[] {
  const ours = readHcs(hcsResult);
  const theirs = readTestssl(entries);
  const rows: AgreementRow[] = [];
  for (const [name] of VERSIONS) {
    rows.push({
      item: `${name} offered`,
      hcs: yesNo(ours.protocols[name]!),
      testssl: yesNo(theirs.protocols[name]!),
      agree: ours.protocols[name] === theirs.protocols[name],
    });
    const theirSuites = theirs.suites[name]!;
    const ourSuites = ours.suites[name]!;
    if (theirSuites.length === 0 && ourSuites.length === 0) continue;
    const untestable = theirSuites.filter((s) => ours.notTestable.has(s));
    const comparable = theirSuites.filter((s) => !ours.notTestable.has(s));
    const missing = comparable.filter((s) => !ourSuites.includes(s) || !suiteByName(s));
    const extra = ourSuites.filter((s) => !theirSuites.includes(s));
    rows.push({
      item: `${name} suites accepted`,
      hcs: `${ourSuites.length}${extra.length ? ` (+${extra.join(", ")})` : ""}`,
      testssl: `${theirSuites.length}${missing.length ? ` (HCS missed ${missing.join(", ")})` : ""}${untestable.length ? ` (${untestable.length} not testable by HCS's client)` : ""}`,
      agree: missing.length === 0 && extra.length === 0,
    });
  }
  const verdict = (item: string, a: boolean, b: boolean) =>
    rows.push({ item, hcs: yesNo(a), testssl: yesNo(b), agree: a === b });
  verdict("suites without forward secrecy", ours.noForwardSecrecy, theirs.noForwardSecrecy);
  verdict("CBC-mode suites", ours.cbc, theirs.cbc);
  verdict("NULL/anonymous/export/RC4/DES/3DES suites", ours.insecure, theirs.insecure);
  verdict("SHA-1/MD5 certificate signature", ours.weakSignature, theirs.weakSignature);
  verdict("no OCSP or CRL in the certificate", ours.noRevocation, theirs.noRevocation);
  return rows;
}
