import { readFileSync } from "node:fs";

/** Reads a file under external-scan/fixtures/. */
export function readFixture(path: string): string {
  return readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");
}

/** A captured HTTP response: what the header and cookie checks read. */
export interface ResponseFixture {
  readonly provenance: string;
  readonly url: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly set_cookies: readonly string[];
}

export function loadResponseFixture(name: string): ResponseFixture {
  return JSON.parse(readFixture(`headers/${name}`)) as ResponseFixture;
}
