import { readFileSync } from "node:fs";
import type { DnsAnswer, DnsFailureCode, DnsIO, MxRecord } from "../io/types.js";

/** A DNS record set captured for tests: TXT and MX answers by name, or the failure a name gives. */
export interface DnsFixture {
  readonly provenance: string;
  readonly domain: string;
  readonly txt: Readonly<Record<string, string[] | DnsFailureCode>>;
  readonly mx?: Readonly<Record<string, MxRecord[] | DnsFailureCode>>;
  readonly addresses?: Readonly<Record<string, string[] | DnsFailureCode>>;
}

export function loadDnsFixture(file: string): DnsFixture {
  return JSON.parse(readFileSync(new URL(`../fixtures/dns/${file}`, import.meta.url), "utf8")) as DnsFixture;
}

function allNames(fixture: DnsFixture): string[] {
  return [...Object.keys(fixture.txt), ...Object.keys(fixture.mx ?? {}), ...Object.keys(fixture.addresses ?? {})];
}

/** How an authoritative server answers a name the fixture has no records of that type for. */
function absent(fixture: DnsFixture, name: string): DnsAnswer<never> {
  const exists = allNames(fixture).some((n) => n === name || n.endsWith(`.${name}`));
  return { ok: false, code: exists ? "nodata" : "nxdomain" };
}

function lookup<T>(
  fixture: DnsFixture,
  table: Readonly<Record<string, T[] | DnsFailureCode>> | undefined,
  name: string,
): DnsAnswer<T[]> {
  const entry = table?.[name.toLowerCase()];
  if (entry === undefined) return absent(fixture, name.toLowerCase());
  return typeof entry === "string" ? { ok: false, code: entry } : { ok: true, records: entry };
}

/** The fixture's TXT answer for a name. */
export function fixtureTxt(fixture: DnsFixture, name: string): DnsAnswer<string[]> {
  return lookup(fixture, fixture.txt, name);
}

export function fixtureMx(fixture: DnsFixture, name: string): DnsAnswer<MxRecord[]> {
  return lookup(fixture, fixture.mx, name);
}

/** A DnsIO that answers from the fixture (for scans run entirely on fakes). */
export function fixtureDnsIO(fixture: DnsFixture): DnsIO {
  return {
    txt: async (name) => fixtureTxt(fixture, name),
    mx: async (name) => fixtureMx(fixture, name),
    addresses: async (name) => lookup(fixture, fixture.addresses, name),
  };
}
