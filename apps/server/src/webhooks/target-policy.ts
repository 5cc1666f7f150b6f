import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { ServiceError } from "../errors.js";
import { checkAddressPolicy } from "../net/ip-policy.js";

export type ResolveHost = (hostname: string) => Promise<string[]>;

/** The system resolver (what an outbound connection would use). */
export const systemResolve: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface VettedTarget {
  readonly url: URL;
  /** The address the connection must use: checked once, used as is (no second lookup to rebind). */
  readonly address: string;
}

/**
 * Checks a callback URL (SSRF guard, docs/security.md, "Network safety"): https only, no credentials in it, and every
 * address its host resolves to must be public unless the operator allows private targets. Throws invalid_callback_url.
 */
export async function vetCallbackUrl(
  raw: string,
  options: { allowPrivateTargets: boolean; resolve?: ResolveHost },
): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError("invalid_callback_url", "callback_url is not a URL");
  }
  if (url.protocol !== "https:") throw new ServiceError("invalid_callback_url", "callback_url must use https");
  if (url.username || url.password)
    throw new ServiceError("invalid_callback_url", "callback_url must not carry credentials");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await (options.resolve ?? systemResolve)(host);
  } catch {
    throw new ServiceError("invalid_callback_url", `callback_url host ${host} does not resolve`);
  }
  if (addresses.length === 0)
    throw new ServiceError("invalid_callback_url", `callback_url host ${host} does not resolve`);
  if (checkAddressPolicy(addresses, options.allowPrivateTargets).length > 0) {
    throw new ServiceError("invalid_callback_url", "callback_url must resolve to public addresses only", { host });
  }
  return { url, address: addresses[0]! };
}
