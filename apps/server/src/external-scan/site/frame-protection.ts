import type { CspPolicy } from "./csp.js";
import { frameAncestorsAllowsAnySite } from "./csp.js";
import { splitHeaderValues } from "./header-values.js";

/** Who may frame a page: nobody, its own origin, some named origins, or any site. */
export type FramingPolicy = "deny" | "same-origin" | "listed-origins" | "any-site";

/**
 * The X-Frame-Options verdict browsers apply (HTML "check a navigation response's adherence to
 * X-Frame-Options", as web-platform-tests' x-frame-options/ tests pin it): values are compared case-insensitively,
 * values other than DENY and SAMEORIGIN (ALLOW-FROM, ALLOWALL, quoted or empty ones) are ignored, and DENY wins
 * over SAMEORIGIN.
 */
export function xFrameOptionsPolicy(value: string | undefined): FramingPolicy {
  const values = (splitHeaderValues(value) ?? []).map((v) => v.toLowerCase());
  if (values.includes("deny")) return "deny";
  if (values.includes("sameorigin")) return "same-origin";
  return "any-site";
}

/**
 * Who may frame the page, from its enforced CSPs and X-Frame-Options. A frame-ancestors directive in any enforced
 * policy makes browsers ignore X-Frame-Options (CSP3 §6.4.2, HTML's XFO check); framing then needs every such
 * directive to allow it, so one restrictive directive is enough.
 */
export function framingPolicy(policies: readonly CspPolicy[], xFrameOptions: string | undefined): FramingPolicy {
  const lists = policies.flatMap((p) => {
    const sources = p.get("frame-ancestors");
    return sources === undefined ? [] : [sources];
  });
  if (lists.length === 0) return xFrameOptionsPolicy(xFrameOptions);
  const restrictive = lists.filter((sources) => !frameAncestorsAllowsAnySite(sources));
  if (restrictive.length === 0) return "any-site";
  const only = (keyword: string) => restrictive.some((s) => s.every((t) => t.toLowerCase() === keyword));
  if (only("'none'") || restrictive.some((s) => s.length === 0)) return "deny";
  if (only("'self'")) return "same-origin";
  return "listed-origins";
}
