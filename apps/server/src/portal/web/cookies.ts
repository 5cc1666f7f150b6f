import type { HcsContext } from "../../http/state.js";

/**
 * The portal's two cookies, both `__Host-` (Secure, Path=/, no Domain: no other host or path can set or read them),
 * HttpOnly and SameSite=Strict: the session, and the pre-session one that binds the CSRF token of the sign-in and
 * invitation forms before anyone is signed in. Values are base64url tokens: nothing to escape.
 */
export const SESSION_COOKIE = "__Host-hcs_session";
export const PRE_SESSION_COOKIE = "__Host-hcs_pre";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A cookie's token from the request, or null when absent or malformed. */
export function cookieToken(ctx: HcsContext, name: string): string | null {
  const header = ctx.get("Cookie");
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN.test(value) ? value : null;
  }
  return null;
}

/** Sets (or with null, clears) a portal cookie. Session-lifetime cookies: the server ends sessions itself. */
export function setCookie(ctx: HcsContext, name: string, token: string | null): void {
  const attributes = "Path=/; Secure; HttpOnly; SameSite=Strict";
  const value = token === null ? `${name}=; ${attributes}; Max-Age=0` : `${name}=${token}; ${attributes}`;
  ctx.append("Set-Cookie", value);
}
