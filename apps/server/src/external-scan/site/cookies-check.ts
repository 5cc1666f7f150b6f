import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import { redactUrl } from "./urls.js";

/** A Set-Cookie header reduced to its name and attributes; the value is never kept (it can be a session secret). */
export interface CookieFlags {
  readonly name: string;
  readonly secure: boolean;
  readonly httpOnly: boolean;
  /** The SameSite enforcement in lower case (strict, lax or none), null when absent or not one of those. */
  readonly sameSite: "strict" | "lax" | "none" | null;
}

const SAME_SITE_VALUES: readonly string[] = ["strict", "lax", "none"];

/**
 * Parses the name and attributes of one Set-Cookie header (RFC 6265 §5.2; SameSite per RFC 6265bis §5.6.7).
 * Null when the browser ignores the header: no "=" in its name-value pair, or an empty name. Attribute names are
 * case-insensitive and split from their value at the first "="; Secure and HttpOnly ignore any value; the last
 * SameSite attribute counts, and a value other than Strict, Lax or None (SameSite=True, SameSite=) leaves the
 * browser's default enforcement, the same as no attribute.
 */
export function parseSetCookie(header: string): CookieFlags | null {
  const [pair = "", ...attributes] = header.split(";");
  const eq = pair.indexOf("=");
  const name = eq < 0 ? "" : pair.slice(0, eq).trim();
  if (name === "") return null;
  const flags = { name, secure: false, httpOnly: false, sameSite: null as CookieFlags["sameSite"] };
  for (const attribute of attributes) {
    const at = attribute.indexOf("=");
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value =
      at < 0
        ? ""
        : attribute
            .slice(at + 1)
            .trim()
            .toLowerCase();
    switch (key) {
      case "secure":
        flags.secure = true;
        break;
      case "httponly":
        flags.httpOnly = true;
        break;
      case "samesite":
        flags.sameSite = SAME_SITE_VALUES.includes(value) ? (value as CookieFlags["sameSite"]) : null;
        break;
    }
  }
  return flags;
}

// Cookie names that carry a login session or an authentication token: the ones script must never read.
const SESSION_COOKIE = /sess|^sid$|_sid$|auth|token|login|jwt|remember|jsessionid|phpsessid|connect\.sid/i;

/**
 * True for a cookie whose name says it holds a session or credential. Anti-forgery tokens are not: the
 * double-submit pattern has script read them on purpose.
 */
export function isSessionCookie(name: string): boolean {
  return SESSION_COOKIE.test(name) && !/csrf|xsrf|requestverification/i.test(name);
}

export interface CookieSource {
  /** The HTTPS page that set the cookies. */
  readonly url: string;
  readonly set_cookies: readonly string[];
}

/** Findings about cookie flags set over HTTPS, one finding per missing flag listing the cookies (pure). */
export function evaluateCookies(siteHost: string, sources: readonly CookieSource[]): FindingParsed[] {
  const cookies = new Map<string, CookieFlags & { url: string }>();
  for (const source of sources) {
    for (const header of source.set_cookies) {
      const flags = parseSetCookie(header);
      if (flags && !cookies.has(flags.name)) cookies.set(flags.name, { ...flags, url: redactUrl(source.url) });
    }
  }
  const all = [...cookies.values()];
  const base = {
    category: "application_security",
    controls: CONTROLS.sessionProtection,
    subject: siteHost,
    host: siteHost,
  } as const;
  const list = (cs: typeof all) => cs.map((c) => ({ name: c.name, set_by: c.url }));
  const findings: FindingParsed[] = [];

  const insecure = all.filter((c) => !c.secure);
  if (insecure.length > 0) {
    findings.push(
      externalFinding({
        ...base,
        check_id: "app.cookies.missing_secure",
        severity: "medium",
        title: "Cookies without the Secure flag",
        detail: `${insecure.map((c) => c.name).join(", ")} can also be sent over plain HTTP, where anyone on the network path can read them.`,
        evidence: { cookies: list(insecure) },
        remediation: "Set the Secure attribute on every cookie the site sets.",
      }),
    );
  }
  const readable = all.filter((c) => isSessionCookie(c.name) && !c.httpOnly);
  if (readable.length > 0) {
    findings.push(
      externalFinding({
        ...base,
        check_id: "app.cookies.missing_httponly",
        severity: "low",
        title: "Session cookies readable by scripts (no HttpOnly)",
        detail: `${readable.map((c) => c.name).join(", ")} look like session cookies but lack HttpOnly, so any injected or third-party script can steal the session.`,
        evidence: { cookies: list(readable) },
        remediation: "Set HttpOnly on session and authentication cookies.",
      }),
    );
  }
  const noSameSite = all.filter((c) => c.sameSite === null);
  if (noSameSite.length > 0) {
    findings.push(
      externalFinding({
        ...base,
        check_id: "app.cookies.missing_samesite",
        severity: "low",
        title: "Cookies without a SameSite attribute",
        detail: `${noSameSite.map((c) => c.name).join(", ")} rely on browser defaults for cross-site requests (older browsers send them everywhere, enabling cross-site request forgery).`,
        evidence: { cookies: list(noSameSite) },
        remediation: "Set SameSite=Lax (or Strict for session cookies that never need cross-site use).",
      }),
    );
  }
  return findings;
}

export const cookiesCheck: ExternalCheck = {
  id: "app.cookies",
  category: "application_security",
  title: "Cookie flags",
  subject: "site",
  timeoutMs: 30_000,
  async run(ctx): Promise<CheckOutcome> {
    const https = await ctx.site.httpsHome();
    if (!https.ok) return { status: https.status, detail: https.detail };
    const crawl = await ctx.crawl();
    const sources: CookieSource[] = [
      https.response,
      ...(crawl.ok ? crawl.pages.map((p) => ({ url: p.url, set_cookies: p.set_cookies })) : []),
    ].filter((s) => new URL(s.url).protocol === "https:");
    const findings = evaluateCookies(ctx.target.siteHost, sources);
    const names = new Set(
      sources.flatMap((s) => s.set_cookies.map((h) => parseSetCookie(h)?.name ?? "")).filter(Boolean),
    );
    return { status: "ok", findings, facts: { cookies_seen: [...names], pages: sources.length } };
  },
};
