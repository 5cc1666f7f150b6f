import { Parser } from "htmlparser2";
import { splitHeaderValues } from "./header-values.js";

/** The referrer policies of the W3C Referrer Policy specification (§3). */
export const REFERRER_POLICIES = [
  "no-referrer",
  "no-referrer-when-downgrade",
  "same-origin",
  "origin",
  "strict-origin",
  "origin-when-cross-origin",
  "strict-origin-when-cross-origin",
  "unsafe-url",
] as const;
export type ReferrerPolicy = (typeof REFERRER_POLICIES)[number];

/** What browsers apply when a page sets no policy (Referrer Policy §3, Fetch's default referrer policy). */
export const DEFAULT_REFERRER_POLICY: ReferrerPolicy = "strict-origin-when-cross-origin";

const isPolicy = (token: string): token is ReferrerPolicy => (REFERRER_POLICIES as readonly string[]).includes(token);

/**
 * Referrer Policy §8.1 "parse a referrer policy from a Referrer-Policy header": the last comma-separated token that
 * is a known policy (compared in lower case, as browsers do); null when there is none.
 */
export function referrerPolicyFromHeader(value: string | undefined): ReferrerPolicy | null {
  let policy: ReferrerPolicy | null = null;
  for (const token of splitHeaderValues(value) ?? []) {
    const lower = token.toLowerCase();
    if (isPolicy(lower)) policy = lower;
  }
  return policy;
}

// HTML's meta name=referrer keeps four legacy keywords (HTML § "Standard metadata names").
const LEGACY_META: Readonly<Record<string, ReferrerPolicy>> = {
  never: "no-referrer",
  default: DEFAULT_REFERRER_POLICY,
  always: "unsafe-url",
  "origin-when-crossorigin": "origin-when-cross-origin",
};

/** The policy the page's `<meta name="referrer">` elements set, the last valid one winning; null when none does. */
export function referrerPolicyFromMeta(html: string): ReferrerPolicy | null {
  let policy: ReferrerPolicy | null = null;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name !== "meta" || attributes.name?.toLowerCase() !== "referrer" || !attributes.content) return;
      const value = attributes.content.toLowerCase();
      const mapped = LEGACY_META[value] ?? value;
      if (isPolicy(mapped)) policy = mapped;
    },
  });
  parser.write(html);
  parser.end();
  return policy;
}

/**
 * The referrer policy a browser applies to the page: a `<meta name="referrer">` overrides the header, and without
 * either the browser default (strict-origin-when-cross-origin) applies.
 */
export function effectiveReferrerPolicy(
  header: string | undefined,
  html: string,
): { policy: ReferrerPolicy; source: "meta" | "header" | "default" } {
  const meta = referrerPolicyFromMeta(html);
  if (meta !== null) return { policy: meta, source: "meta" };
  const fromHeader = referrerPolicyFromHeader(header);
  if (fromHeader !== null) return { policy: fromHeader, source: "header" };
  return { policy: DEFAULT_REFERRER_POLICY, source: "default" };
}
