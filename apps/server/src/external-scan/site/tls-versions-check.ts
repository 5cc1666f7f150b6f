import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { statusForNetFailure } from "../check-status.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import { TLS_VERSIONS, type TlsHandshakeOutcome, type TlsVersion } from "../io/types.js";

type Outcomes = Partial<Record<TlsVersion, TlsHandshakeOutcome>>;

const LEGACY: readonly TlsVersion[] = ["TLSv1", "TLSv1.1"];
/** How the findings and facts name the versions. */
export const VERSION_NAMES: Record<TlsVersion, string> = {
  TLSv1: "TLS 1.0",
  "TLSv1.1": "TLS 1.1",
  "TLSv1.2": "TLS 1.2",
  "TLSv1.3": "TLS 1.3",
};

/** The versions the server completed a handshake with. */
export function offeredTlsVersions(outcomes: Outcomes): TlsVersion[] {
  return TLS_VERSIONS.filter((v) => outcomes[v]?.ok === true);
}

/** Why a check that needs a negotiated version could not run: the first connection failure, or no version at all. */
export function noTlsVersionOutcome(outcomes: Outcomes): CheckOutcome {
  const failure = TLS_VERSIONS.map((v) => outcomes[v]).find((o) => o && !o.ok && o.code !== "handshake_failed");
  if (failure && !failure.ok) return { status: statusForNetFailure(failure.code), detail: `TLS: ${failure.code}` };
  return { status: "error", detail: "no TLS version could be negotiated" };
}

/** Findings about the TLS versions a site accepts (pure). */
export function evaluateTlsVersions(siteHost: string, port: number, outcomes: Outcomes): FindingParsed[] {
  const offered = offeredTlsVersions(outcomes);
  const base = {
    category: "application_security",
    controls: CONTROLS.transportIntegrity,
    subject: `${siteHost}:${port}`,
    host: siteHost,
  } as const;
  const evidence = {
    port,
    offered: offered.map((v) => VERSION_NAMES[v]),
    not_offered: TLS_VERSIONS.filter((v) => outcomes[v]?.ok === false && outcomes[v].code === "handshake_failed").map(
      (v) => VERSION_NAMES[v],
    ),
  };
  const findings: FindingParsed[] = [];
  const legacy = offered.filter((v) => LEGACY.includes(v));
  if (legacy.length > 0) {
    findings.push(
      externalFinding({
        ...base,
        check_id: "app.tls_versions.legacy",
        severity: "high",
        title: `${legacy.map((v) => VERSION_NAMES[v]).join(" and ")} still offered`,
        detail: `${siteHost}:${port} accepts ${legacy.map((v) => VERSION_NAMES[v]).join(" and ")}, deprecated by RFC 8996 and no longer acceptable for protecting ePHI in transit (NIST SP 800-52r2 requires TLS 1.2 or later).`,
        evidence,
        remediation: "Disable TLS 1.0 and TLS 1.1 on the web server or load balancer; keep TLS 1.2 and TLS 1.3.",
        grade_cap: "legacy_tls",
      }),
    );
  }
  if (offered.length > 0 && !offered.includes("TLSv1.2") && !offered.includes("TLSv1.3")) {
    findings.push(
      externalFinding({
        ...base,
        check_id: "app.tls_versions.no_modern",
        severity: "high",
        title: "Neither TLS 1.2 nor TLS 1.3 is offered",
        detail: `${siteHost}:${port} only speaks deprecated TLS versions; current browsers refuse to connect.`,
        evidence,
        remediation: "Upgrade the web server's TLS library and enable TLS 1.2 and TLS 1.3.",
      }),
    );
  } else if (offered.includes("TLSv1.2") && !offered.includes("TLSv1.3")) {
    findings.push(
      externalFinding({
        ...base,
        check_id: "app.tls_versions.no_tls13",
        severity: "info",
        title: "TLS 1.3 is not offered",
        detail: `${siteHost}:${port} tops out at TLS 1.2. That is acceptable today; TLS 1.3 is faster and removes legacy cipher suites.`,
        evidence,
        remediation: "Enable TLS 1.3 when the server software allows it.",
      }),
    );
  }
  return findings;
}

export const tlsVersionsCheck: ExternalCheck = {
  id: "app.tls_versions",
  category: "application_security",
  title: "TLS versions",
  subject: "site",
  timeoutMs: 15_000,
  async run(ctx): Promise<CheckOutcome> {
    const { host, outcomes } = await ctx.site.tlsHandshakes();
    if (!host.ok) return { status: host.status, detail: host.detail };
    const offered = offeredTlsVersions(outcomes);
    const answered = TLS_VERSIONS.filter((v) => outcomes[v]?.ok || outcomes[v]?.code === "handshake_failed");
    if (offered.length === 0) return noTlsVersionOutcome(outcomes);
    return {
      status: "ok",
      findings: evaluateTlsVersions(ctx.target.siteHost, ctx.target.httpsPort, outcomes),
      facts: {
        offered: offered.map((v) => VERSION_NAMES[v]),
        undetermined: TLS_VERSIONS.filter((v) => !answered.includes(v)).map((v) => VERSION_NAMES[v]),
      },
    };
  },
};
