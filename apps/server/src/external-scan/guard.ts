import { isIP } from "node:net";
import { checkAddressPolicy } from "../net/ip-policy.js";
import type { CachedDns } from "./cached-dns.js";
import { type FailedCheckStatus, statusForDnsFailure } from "./check-status.js";

/** A host the scan may talk to (with the addresses it may use), or why it may not. */
export type HostResolution =
  | { readonly ok: true; readonly host: string; readonly addresses: string[] }
  | {
      readonly ok: false;
      readonly host: string;
      readonly status: FailedCheckStatus;
      readonly detail: string;
      /** The non-public addresses that caused a refusal. */
      readonly blocked?: string[];
    };

/**
 * Resolves hosts for the scan and applies the address policy. Every connection the scan makes goes to an
 * address returned here, so nothing is sent to a refused address (and a later DNS answer cannot swap it).
 */
export function createHostGuard(
  dns: CachedDns,
  allowPrivateTargets: boolean,
): (host: string) => Promise<HostResolution> {
  const cache = new Map<string, Promise<HostResolution>>();
  const resolveHost = async (host: string): Promise<HostResolution> => {
    const literal = isIP(host) !== 0;
    const answer = literal ? { ok: true as const, records: [host] } : await dns.addresses(host);
    if (!answer.ok) {
      return {
        ok: false,
        host,
        status: statusForDnsFailure(answer.code),
        detail: `${host} did not resolve (${answer.code})`,
      };
    }
    const blocked = checkAddressPolicy(answer.records, allowPrivateTargets);
    if (blocked.length > 0) {
      return {
        ok: false,
        host,
        status: "refused",
        detail: `${host} resolves to non-public address ${blocked.join(", ")}; private targets are not allowed`,
        blocked,
      };
    }
    return { ok: true, host, addresses: answer.records };
  };
  return (host) => {
    const key = host.toLowerCase();
    let pending = cache.get(key);
    if (!pending) {
      pending = resolveHost(key);
      cache.set(key, pending);
    }
    return pending;
  };
}
