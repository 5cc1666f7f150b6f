import { compareVersions, onBranch, parseVersion, type Version } from "./versions.js";

/**
 * The affected versions a KEV entry states, where it states any. KEV has no version fields; what there is lives in
 * prose — the short description ("versions prior to 5.0.2", "2.4.48 and earlier", "through 4.3", "8.5p1 before
 * 9.8p1", "<= 3.1.2", "7.44 and up"), sometimes the notes ("The patched JAI-EXT is version 1.1.22") or the name.
 * Each statement becomes a range. Most entries state none; then versions can rule a match neither in nor out.
 */
export interface AffectedRange {
  /** Only versions on this branch (`1.0.2` in "1.0.2 before 1.0.2k"); null for any. */
  readonly branch: Version | null;
  /** Affected from this version on (inclusive): "8.5p1 before 9.8p1", "2.4.49 through 2.4.50", "7.44 and up". */
  readonly from?: Version;
  /** Affected below this version (exclusive) … */
  readonly below?: Version;
  /** … or at or below this one (inclusive). Neither: only a lower bound is stated (never enough to confirm). */
  readonly upTo?: Version;
  /** The words it was read from, shown as the evidence. */
  readonly source: string;
}

/** The KEV fields that may state versions (the catalogue's own names). */
export interface KevVersionText {
  readonly shortDescription: string;
  readonly vulnerabilityName: string;
  readonly notes?: string;
}

const V = String.raw`v?\d{1,9}(?:\.\d{1,9}){0,5}[a-z]{0,2}\d{0,6}`;
const VERSION_WORD = "(?:versions? )?";
// A form's reading: a range, null (the words are not this form: other forms may read them) or "void" (they are, but
// state nothing usable — a range written backwards — so no other form may read a bound out of them).
type Reading = Omit<AffectedRange, "source"> | null | "void";
// Ordered: the two-sided forms first, so that "2.4.49 through 2.4.50" is not also read as "through 2.4.50".
const FORMS: readonly { re: RegExp; read: (m: RegExpMatchArray) => Reading }[] = [
  {
    // "1.0.2 before 1.0.2k" (a branch), "8.5p1 before 9.8p1" (from … below), "Struts 2 before 2.2.3.1".
    re: new RegExp(String.raw`\b(${V})\.?x? (?:before|prior to) ${VERSION_WORD}(${V})\b`, "gi"),
    read: (m) => {
      const a = parseVersion(m[1]!);
      const b = parseVersion(m[2]!);
      if (!a || !b || b.parts.length < 2) return null;
      if (onBranch(b, a)) return { branch: a, below: b };
      return a.parts.length >= 2 && compareVersions(a, b) < 0 ? { branch: null, from: a, below: b } : null;
    },
  },
  {
    // "2.4.49 through 2.4.50", "from 1.1 to 1.3", "between 9.0 and 9.3", "3.0.0 – 3.0.6".
    re: new RegExp(
      String.raw`(?:\b(?:from|between) ${VERSION_WORD})?\b(${V}) (?:through|thru|to|and|-|–|up to(?: and including)?) ${VERSION_WORD}(${V})\b(?! (?:and|or) )`,
      "gi",
    ),
    read: (m) => {
      const twoSided = /^(?:from|between) /i.test(m[0]) || !/ (?:to|and) /i.test(m[0]);
      if (!twoSided) return null;
      return bounded(m[1]!, m[2]!, "upTo") ?? "void";
    },
  },
  {
    // "before 2.4.50", "versions prior to 5.0.2", "earlier than 9.0.1", "< 3.1".
    re: new RegExp(
      String.raw`(?:\b(?:before|prior to|earlier than|lower than|older than|below)|(?:^|\s)<)(?!=) ?${VERSION_WORD}(${V})\b`,
      "gi",
    ),
    read: (m) => upper(m[1]!, "below"),
  },
  {
    // The fix named instead: "fixed in 6.12", "The patched JAI-EXT is version 1.1.22", "update to version 2.4.51".
    re: new RegExp(
      String.raw`\b(?:(?:fixed|patched|resolved|addressed) in|patched\b[^.;:]{0,60}? is|updated? (?:with|to)) ${VERSION_WORD}(${V})\b`,
      "gi",
    ),
    read: (m) => upper(m[1]!, "below"),
  },
  {
    // "through 4.3", "up to and including 1.2.3", "<= 3.1.2", "≤ 3.1.2".
    re: new RegExp(
      String.raw`(?:\b(?:through|thru|up to(?: and including)?)|(?:^|\s)(?:<=|≤)) ?${VERSION_WORD}(${V})\b`,
      "gi",
    ),
    read: (m) => upper(m[1]!, "upTo"),
  },
  {
    // "2.4.48 and earlier", "15.2.5 or prior", "3.0 and below", "1.2.3 or older", "8.1 and lower".
    re: new RegExp(String.raw`\b(${V}) (?:and|or) (?:earlier|prior|below|older|lower)\b`, "gi"),
    read: (m) => upper(m[1]!, "upTo"),
  },
  {
    // A lower bound alone: "7.44 and up", "2.0 and later", ">= 2.0", "since 4.2". It can only rule older versions out.
    re: new RegExp(
      String.raw`\b(${V}) (?:and|or) (?:later|above|newer|higher|up)\b|(?:\b(?:since|starting (?:with|from|in))|(?:^|\s)(?:>=|≥)) ?${VERSION_WORD}(${V})\b`,
      "gi",
    ),
    read: (m) => {
      const v = parseVersion((m[1] ?? m[2])!);
      return v && v.parts.length >= 2 ? { branch: null, from: v } : null;
    },
  },
];

/** A one-sided upper bound; a bare number ("iOS before 8", "build 11302") is too coarse or not a version. */
function upper(text: string, kind: "below" | "upTo"): Omit<AffectedRange, "source"> | null {
  const v = parseVersion(text);
  return v && v.parts.length >= 2 ? { branch: null, [kind]: v } : null;
}

function bounded(low: string, high: string, kind: "below" | "upTo"): Omit<AffectedRange, "source"> | null {
  const a = parseVersion(low);
  const b = parseVersion(high);
  if (!a || !b || a.parts.length < 2 || b.parts.length < 2 || compareVersions(a, b) > 0) return null;
  return { branch: null, from: a, [kind]: b };
}

const URL = /\bhttps?:\/\/\S+/gi;

/** Ranges stated in a text; empty when it states none. Pure; reads at most the first 4,000 characters. */
export function affectedRanges(text: string): AffectedRange[] {
  const clipped = text.slice(0, 4000).replace(URL, " ");
  const out: AffectedRange[] = [];
  const taken: [number, number][] = [];
  const free = (start: number, end: number) => taken.every(([s, e]) => end <= s || start >= e);
  for (const form of FORMS) {
    for (const m of clipped.matchAll(form.re)) {
      const start = m.index + (m[0].length - m[0].trimStart().length);
      const end = m.index + m[0].length;
      if (!free(start, end)) continue;
      const range = form.read(m);
      if (!range) continue;
      if (range !== "void") out.push({ ...range, source: m[0].trim() });
      taken.push([start, end]);
    }
  }
  return out;
}

/** The ranges a KEV entry states in any of its prose fields (the same statement twice counts once). */
export function kevAffectedRanges(entry: KevVersionText): AffectedRange[] {
  const seen = new Set<string>();
  return [entry.shortDescription, entry.vulnerabilityName, entry.notes ?? ""]
    .flatMap(affectedRanges)
    .filter((r) => !seen.has(r.source.toLowerCase()) && seen.add(r.source.toLowerCase()));
}

/** affected / fixed by the stated ranges; unknown when none is stated or the version cannot be read. */
export type VersionVerdict = "affected" | "fixed" | "unknown";

/**
 * A distribution package's version (`1:9.2p1-2+deb12u6`, `2.4.52-1ubuntu4.7`, `1.1.1k-7.el8_6`): the upstream
 * number plus a packaging revision. Distributions backport security fixes without changing the upstream number, so
 * such a version below a stated range is no proof of exposure; above it, it is still fixed.
 */
const DISTRO_REVISION = /^(?:\d+:)?[^-\s]+-[0-9][0-9a-z.~+_]*$|ubuntu|\+deb|\.el\d|\.fc\d|\.amzn|~/i;

/**
 * What the stated ranges say of `version`: affected when one holds it (an upper bound is needed — a lower bound
 * alone never confirms), fixed when it lies outside all of them, unknown otherwise. `packaged`: the version is a
 * distribution's build (a Server header's "(Ubuntu)"), whose upstream number does not show backported fixes.
 */
export function judgeVersion(version: string, ranges: readonly AffectedRange[], packaged = false): VersionVerdict {
  if (ranges.length === 0) return "unknown";
  // A Debian epoch (`1:`) is packaging, not part of the upstream version.
  const v = parseVersion(version.trim().replace(/^\d+:/, ""));
  if (!v) return "unknown";
  // Branch ranges speak only for their branch; a version on no stated branch is judged by the unbranched ones.
  const relevant = ranges.filter((r) => r.branch === null || onBranch(v, r.branch));
  if (relevant.length === 0) return "unknown";
  let hit = false;
  let open = false;
  for (const r of relevant) {
    if (r.from && compareVersions(v, r.from) < 0) continue;
    if (r.below) hit ||= compareVersions(v, r.below) < 0;
    else if (r.upTo) hit ||= compareVersions(v, r.upTo) <= 0;
    else open = true;
  }
  if (hit) return packaged || DISTRO_REVISION.test(version.trim()) ? "unknown" : "affected";
  return open ? "unknown" : "fixed";
}
