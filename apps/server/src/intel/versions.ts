/**
 * Dotted software versions as inventories and advisories write them (`2.4.49`, `1.1.1w`, `8.9p1`, `v18.20.3`):
 * numbers compared numerically, a trailing letter suffix compared as text after the numbers (OpenSSL's `1.1.1k`
 * is newer than `1.1.1`). Pure; bounded input.
 */
export interface Version {
  readonly parts: readonly number[];
  readonly suffix: string;
}

const VERSION = /^v?(\d{1,9}(?:\.\d{1,9}){0,5})([a-z]{1,2}\d{0,6})?/i;

/** The leading version of `text` (after an optional `v`), or null when it does not start with one. */
export function parseVersion(text: string): Version | null {
  const m = VERSION.exec(text.trim().slice(0, 64));
  if (!m?.[1]) return null;
  return { parts: m[1].split(".").map(Number), suffix: (m[2] ?? "").toLowerCase() };
}

/** The first version anywhere in `text` not glued to a preceding digit or dot (`nginx/1.25.3` → 1.25.3). */
export function findVersion(text: string): Version | null {
  const m = /(?<![\d.])v?(\d{1,9}(?:\.\d{1,9}){0,5}[a-z]{0,2}\d{0,6})/i.exec(text.slice(0, 256));
  return m?.[1] ? parseVersion(m[1]) : null;
}

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < Math.max(a.parts.length, b.parts.length); i++) {
    const d = (a.parts[i] ?? 0) - (b.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (a.suffix === b.suffix) return 0;
  return a.suffix < b.suffix ? -1 : 1;
}

/** True when `v` lies on `branch` (`2.4` holds `2.4.49`, not `2.40`). */
export function onBranch(v: Version, branch: Version): boolean {
  return branch.parts.every((p, i) => v.parts[i] === p);
}

export const formatVersion = (v: Version) => v.parts.join(".") + v.suffix;
