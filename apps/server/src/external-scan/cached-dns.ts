import type { DnsAnswer, DnsIO, MxRecord } from "./io/types.js";

/** DNS answers shared by every check of one scan: each name and type is asked once. */
export interface CachedDns {
  txt(name: string): Promise<DnsAnswer<string[]>>;
  mx(name: string): Promise<DnsAnswer<MxRecord[]>>;
  addresses(name: string): Promise<DnsAnswer<string[]>>;
}

/** Looks up TXT answers the pure evaluators have already been given; undefined means "not asked yet". */
export type TxtLookup = (name: string) => DnsAnswer<string[]> | undefined;

export function createCachedDns(dns: DnsIO, signal: AbortSignal): CachedDns {
  const cache = new Map<string, Promise<DnsAnswer<unknown>>>();
  function memo<T>(type: string, name: string, ask: () => Promise<DnsAnswer<T>>): Promise<DnsAnswer<T>> {
    const key = `${type} ${name.toLowerCase()}`;
    let pending = cache.get(key);
    if (!pending) {
      // A DnsIO must not throw, but if one does the scan treats it as a failed query, not a failed scan.
      pending = ask().catch((error: unknown) => ({ ok: false, code: "error", detail: String(error) }) as const);
      cache.set(key, pending);
    }
    return pending as Promise<DnsAnswer<T>>;
  }
  return {
    txt: (name) => memo("TXT", name, () => dns.txt(name.toLowerCase(), signal)),
    mx: (name) => memo("MX", name, () => dns.mx(name.toLowerCase(), signal)),
    addresses: (name) => memo("ADDR", name, () => dns.addresses(name.toLowerCase(), signal)),
  };
}
