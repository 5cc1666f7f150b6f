import { compareVersions, onBranch, parseVersion, type Version } from "./versions.js";

/**
 * The affected versions a KEV entry's description states, where it states any: KEV itself carries no version
 * fields, but some descriptions say "before 2.4.50", "2.4.48 and earlier", "through 4.3" or "1.0.2 before
 * 1.0.2k". Each form becomes a range; most entries state none (then versions cannot rule a match in or out).
 */
export interface AffectedRange {
  /** Only versions on this branch (`1.0.2` in "1.0.2 before 1.0.2k"); null for any. */
  readonly branch: Version | null;
  /** Affected below this version (exclusive) … */
  readonly below?: Version;
  /** … or at or below this one (inclusive). */
  readonly upTo?: Version;
  /** The words it was read from, shown as the evidence. */
  readonly source: string;
}

const V = String.raw`v?\d{1,9}(?:\.\d{1,9}){0,5}[a-z]{0,2}\d{0,6}`;
const BRANCH_BEFORE = new RegExp(String.raw`\b(${V})\.?x? before (${V})\b`, "gi");
const BEFORE = new RegExp(String.raw`\b(?:before|prior to)(?: version)? (${V})\b`, "gi");
const THROUGH = new RegExp(String.raw`\b(?:through|up to and including)(?: version)? (${V})\b`, "gi");
const AND_EARLIER = new RegExp(String.raw`\b(${V}) (?:and|or) (?:earlier|prior|below|older)\b`, "gi");

/** Ranges stated in a KEV description; empty when it states none. */
export function affectedRanges(description: string): AffectedRange[] {
  const text = description.slice(0, 4000);
  const out: AffectedRange[] = [];
  const taken: [number, number][] = [];
  const free = (start: number, end: number) => taken.every(([s, e]) => end <= s || start >= e);
  for (const m of text.matchAll(BRANCH_BEFORE)) {
    const branch = parseVersion(m[1]!);
    const below = parseVersion(m[2]!);
    if (!branch || !below || !onBranch(below, branch)) continue;
    out.push({ branch, below, source: m[0] });
    taken.push([m.index, m.index + m[0].length]);
  }
  for (const [re, kind] of [
    [BEFORE, "below"],
    [THROUGH, "upTo"],
    [AND_EARLIER, "upTo"],
  ] as const) {
    for (const m of text.matchAll(re)) {
      if (!free(m.index, m.index + m[0].length)) continue;
      const v = parseVersion(m[1]!);
      // A bare year or a single number ("before 8" of iOS) is too coarse to rule anything out.
      if (!v || v.parts.length < 2) continue;
      out.push({ branch: null, [kind]: v, source: m[0] });
    }
  }
  return out;
}

/** affected / fixed by the stated ranges; unknown when none is stated or the version cannot be read. */
export type VersionVerdict = "affected" | "fixed" | "unknown";

/**
 * A distribution package's version (`1:9.2p1-2+deb12u6`, `2.4.52-1ubuntu4.7`, `1.1.1k-7.el8_6`): the upstream
 * number plus a packaging revision. Distributions backport security fixes without changing the upstream number, so
 * such a version below a stated range is no proof of exposure; above it, it is still fixed.
 */
const DISTRO_REVISION = /^(?:\d+:)?[^-\s]+-[0-9][0-9a-z.~+_]*$|ubuntu|\+deb|\.el\d|\.fc\d|\.amzn|~/i;

export function judgeVersion(version: string, ranges: readonly AffectedRange[]): VersionVerdict {
  if (ranges.length === 0) return "unknown";
  // A Debian epoch (`1:`) is packaging, not part of the upstream version.
  const v = parseVersion(version.trim().replace(/^\d+:/, ""));
  if (!v) return "unknown";
  // Branch ranges speak only for their branch; a version on no stated branch is judged by the unbranched ones.
  const relevant = ranges.filter((r) => r.branch === null || onBranch(v, r.branch));
  if (relevant.length === 0) return "unknown";
  const hit = relevant.some((r) =>
    r.below ? compareVersions(v, r.below) < 0 : r.upTo ? compareVersions(v, r.upTo) <= 0 : false,
  );
  if (!hit) return "fixed";
  return DISTRO_REVISION.test(version.trim()) ? "unknown" : "affected";
}
