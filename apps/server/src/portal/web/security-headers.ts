import type { HcsContext } from "../../http/state.js";

/**
 * The headers the external scan demands of a clinic's site (external-scan/site/security-headers-check.ts), on every
 * portal response: a Content-Security-Policy without 'unsafe-inline' (styles and scripts are files under
 * /portal/assets; the QR code is a data: image), HSTS for a year, no sniffing, no framing, no referrer (an
 * invitation link's token never leaves in a Referer), and no powerful browser features.
 */
export const PORTAL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export const PORTAL_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": PORTAL_CSP,
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

export function setSecurityHeaders(ctx: HcsContext): void {
  for (const [name, value] of Object.entries(PORTAL_SECURITY_HEADERS)) ctx.set(name, value);
}
