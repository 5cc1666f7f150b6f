/** A finding's evidence as labelled lines: what a person can read in a table cell or a printed page. */
export interface EvidenceLine {
  readonly label: string;
  readonly value: string;
}

/** Longest value kept on one line; longer ones (a cipher list of every TLS version) end in "…". */
const MAX_VALUE = 600;

const clip = (s: string) => (s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s);

function scalar(v: unknown): string {
  if (v === null || v === undefined) return "none";
  if (typeof v === "string") return v === "" ? "(empty)" : v;
  return String(v);
}

/** One value in words: scalars as they are, lists joined, objects as `key: value` pairs. */
function inline(v: unknown): string {
  if (Array.isArray(v)) return v.length === 0 ? "none" : v.map(inline).join("; ");
  if (typeof v === "object" && v !== null) {
    const entries = Object.entries(v);
    return entries.length === 0 ? "none" : entries.map(([k, x]) => `${k}: ${inline(x)}`).join(", ");
  }
  return scalar(v);
}

/**
 * Flattens a finding's evidence object (pure): top-level fields become lines in the check's order, a nested object
 * gives one line per field (`suites / TLS 1.0`), lists are joined. An empty object gives no lines.
 */
export function evidenceLines(evidence: Readonly<Record<string, unknown>>): EvidenceLine[] {
  const out: EvidenceLine[] = [];
  for (const [key, value] of Object.entries(evidence)) {
    if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0) {
      for (const [sub, x] of Object.entries(value)) out.push({ label: `${key} / ${sub}`, value: clip(inline(x)) });
    } else {
      out.push({ label: key, value: clip(inline(value)) });
    }
  }
  return out;
}
