import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import { redactUrl } from "./urls.js";

export interface DisclosedSoftware {
  readonly header: string;
  readonly product: string;
  readonly version: string;
  /**
   * What the banner says of the build — a packaging revision (`-4ubuntu2.18`, `-fips`) or the comment after it
   * (`(Ubuntu)`, `(CentOS)`, `(Win64)`) — or null when it says nothing. A distribution's build backports fixes
   * without changing the upstream number, so threat intelligence must not judge its version as upstream's
   * (docs/intelligence.md). Always present, so that evidence recorded before builds were kept (no key) is told apart.
   */
  readonly build: string | null;
}

/**
 * End-of-life dates of server software branches that show up in Server / X-Powered-By headers, from the vendors'
 * published support schedules (php.net/eol.php, httpd.apache.org, openssl-library.org/policies/releasestrat,
 * Microsoft lifecycle for the Windows Server release each IIS version ships with).
 */
export const END_OF_LIFE_BRANCHES: readonly { product: string; branch: string; eol: string }[] = [
  { product: "php", branch: "5", eol: "2018-12-31" },
  { product: "php", branch: "7.0", eol: "2019-01-10" },
  { product: "php", branch: "7.1", eol: "2019-12-01" },
  { product: "php", branch: "7.2", eol: "2020-11-30" },
  { product: "php", branch: "7.3", eol: "2021-12-06" },
  { product: "php", branch: "7.4", eol: "2022-11-28" },
  { product: "php", branch: "8.0", eol: "2023-11-26" },
  { product: "php", branch: "8.1", eol: "2025-12-31" },
  { product: "php", branch: "8.2", eol: "2026-12-31" },
  { product: "php", branch: "8.3", eol: "2027-12-31" },
  { product: "apache", branch: "2.0", eol: "2013-07-10" },
  { product: "apache", branch: "2.2", eol: "2017-07-11" },
  { product: "openssl", branch: "1.0", eol: "2019-12-31" },
  { product: "openssl", branch: "1.1.0", eol: "2019-09-11" },
  { product: "openssl", branch: "1.1.1", eol: "2023-09-11" },
  { product: "openssl", branch: "3.0", eol: "2026-09-07" },
  { product: "microsoft-iis", branch: "6.0", eol: "2015-07-14" },
  { product: "microsoft-iis", branch: "7.0", eol: "2020-01-14" },
  { product: "microsoft-iis", branch: "7.5", eol: "2020-01-14" },
  { product: "microsoft-iis", branch: "8.0", eol: "2023-10-10" },
  { product: "microsoft-iis", branch: "8.5", eol: "2023-10-10" },
];

// Headers whose whole value is a version of a known product.
const VERSION_ONLY_HEADERS: Readonly<Record<string, string>> = {
  "x-aspnet-version": "ASP.NET",
  "x-aspnetmvc-version": "ASP.NET MVC",
};

/** Product/version pairs in Server, X-Powered-By and ASP.NET version headers (lower-case header names). */
export function disclosedSoftware(headers: Readonly<Record<string, string>>): DisclosedSoftware[] {
  const out: DisclosedSoftware[] = [];
  for (const header of ["server", "x-powered-by"]) {
    const value = headers[header];
    if (!value) continue;
    for (const m of value.matchAll(
      /([A-Za-z][\w.+-]*)\/v?(\d+(?:\.\d+)*[a-z]?)([-~+][\w.~+-]*)?(?: ?\(([^()]{1,60})\))?/g,
    )) {
      const build = [m[3], m[4] ? `(${m[4]})` : undefined].filter(Boolean).join(" ");
      out.push({ header, product: m[1]!, version: m[2]!, build: build || null });
    }
  }
  for (const [header, product] of Object.entries(VERSION_ONLY_HEADERS)) {
    const version = headers[header]?.trim();
    if (version && /^\d+(\.\d+)*$/.test(version)) out.push({ header, product, version, build: null });
  }
  return out;
}

/** True when `version` is on `branch`: 7.4 holds 7.4.3; 1.1.1 holds OpenSSL's lettered 1.1.1f. */
function isOnBranch(version: string, branch: string): boolean {
  if (!version.startsWith(branch)) return false;
  const rest = version.slice(branch.length);
  return rest === "" || rest.startsWith(".") || /^[a-z]$/.test(rest);
}

/** The end-of-life branch a disclosed version belongs to, if it has reached its end of life by `now`. */
export function endOfLifeBranch(software: DisclosedSoftware, now: Date) {
  const product = software.product.toLowerCase();
  return END_OF_LIFE_BRANCHES.find(
    (b) => b.product === product && isOnBranch(software.version, b.branch) && Date.parse(b.eol) <= now.getTime(),
  );
}

/** Findings about software versions the site discloses (pure; `now` decides end of life). */
export function evaluateServerDisclosure(
  siteHost: string,
  url: string,
  headers: Readonly<Record<string, string>>,
  now: Date,
): FindingParsed[] {
  const software = disclosedSoftware(headers);
  if (software.length === 0) return [];
  const page = redactUrl(url);
  const listed = software.map((s) => `${s.product}/${s.version}`).join(", ");
  const base = {
    category: "application_security",
    subject: siteHost,
    host: siteHost,
    controls: CONTROLS.softwareRisk,
  } as const;
  const findings: FindingParsed[] = [
    externalFinding({
      ...base,
      check_id: "app.server_disclosure.version",
      severity: "low",
      title: "Web server discloses software versions",
      detail: `Response headers name ${listed}, which tells an attacker exactly which published vulnerabilities to try.`,
      evidence: { url: page, software: software.map((s) => ({ ...s })) },
      remediation:
        "Hide version numbers (Apache: ServerTokens Prod; nginx: server_tokens off; PHP: expose_php = Off; IIS: removeServerHeader).",
    }),
  ];
  const eol = software.flatMap((s) => {
    const branch = endOfLifeBranch(s, now);
    return branch ? [{ ...s, eol: branch.eol }] : [];
  });
  if (eol.length > 0) {
    findings.push(
      externalFinding({
        ...base,
        check_id: "app.server_disclosure.end_of_life",
        severity: "high",
        title: "Website runs end-of-life server software",
        detail: `${eol.map((s) => `${s.product} ${s.version} (end of life ${s.eol})`).join(", ")}: no security fixes are published for it any more.`,
        evidence: { url: page, software: eol.map((s) => ({ ...s })) },
        remediation: "Upgrade to a supported release of each component, then hide version numbers.",
        grade_cap: "end_of_life_system",
      }),
    );
  }
  return findings;
}

export const serverDisclosureCheck: ExternalCheck = {
  id: "app.server_disclosure",
  category: "application_security",
  title: "Server version disclosure",
  subject: "site",
  timeoutMs: 20_000,
  async run(ctx): Promise<CheckOutcome> {
    const [https, http] = await Promise.all([ctx.site.httpsHome(), ctx.site.httpHome()]);
    // Headers of the plain-HTTP site still disclose the same server when HTTPS is down.
    const response = https.ok ? https.response : http.ok ? http.response : null;
    if (!response) return https.ok ? { status: "ok" } : { status: https.status, detail: https.detail };
    const { headers, url } = response;
    return {
      status: "ok",
      findings: evaluateServerDisclosure(ctx.target.siteHost, url, headers, ctx.now),
      facts: { server: headers.server ?? null, "x-powered-by": headers["x-powered-by"] ?? null },
    };
  },
};
