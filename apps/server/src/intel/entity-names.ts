/**
 * Organisation names as the breach portal and practice records write them, reduced to comparable keys: case,
 * punctuation, "&"/"and", legal-form suffixes (Inc., LLC, P.C., PLLC…), a leading "The", and d/b/a: a name
 * "A, LLC dba B" is known under both A and B. Pure.
 */

/** Legal forms dropped from the end of a name (after punctuation became spaces). */
const LEGAL_SUFFIXES = [
  "incorporated",
  "inc",
  "llc",
  "l l c",
  "pllc",
  "p l l c",
  "llp",
  "l l p",
  "lp",
  "ltd",
  "limited",
  "corp",
  "corporation",
  "co",
  "company",
  "pc",
  "p c",
  "pa",
  "p a",
  "psc",
  "sc",
  "s c",
  "plc",
  "chtd",
  "chartered",
  "md pc",
  "dds pc",
  "dmd pc",
];

/** "doing business as" and its spellings, splitting a name into the names it is known by. */
const DBA =
  /\b(?:d\s*\/\s*b\s*\/\s*a|d\s*\.\s*b\s*\.\s*a\s*\.?|dba|doing business as|a\s*\/\s*k\s*\/\s*a|aka|f\s*\/\s*k\s*\/\s*a|fka)\b/i;

/** Spelling variants of the same word in practice names, folded before comparing. */
const WORD_FORMS: Readonly<Record<string, string>> = {
  ctr: "center",
  centre: "center",
  cntr: "center",
  assoc: "associates",
  assocs: "associates",
  assn: "association",
  med: "medical",
  hosp: "hospital",
  hlth: "health",
  svcs: "services",
  svc: "service",
  mgmt: "management",
  dept: "department",
  univ: "university",
  intl: "international",
  natl: "national",
  st: "saint",
  mt: "mount",
  ft: "fort",
  orthopedic: "orthopaedic",
  orthopedics: "orthopaedics",
  pediatric: "paediatric",
  pediatrics: "paediatrics",
};

function baseKey(name: string): string {
  let s = ` ${name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/&/g, " and ")
    .replace(/['’`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
  // Legal forms may stack ("Smith Dental, P.C., Inc."): strip until none is left at the end.
  for (let changed = true; changed; ) {
    changed = false;
    for (const suffix of LEGAL_SUFFIXES) {
      if (s.endsWith(` ${suffix} `) && s.trim() !== suffix) {
        s = s.slice(0, s.length - suffix.length - 1);
        changed = true;
      }
    }
  }
  s = s.trim().replace(/^the /, "");
  return s
    .split(" ")
    .filter(Boolean)
    .map((w) => WORD_FORMS[w] ?? w)
    .join(" ");
}

/**
 * The keys a name is known under: one per d/b/a part (at most four), each normalized as above; blank parts and
 * parts of fewer than three characters (initials) are dropped.
 */
export function entityNameKeys(name: string): string[] {
  const parts = name.slice(0, 300).split(DBA);
  const keys = parts.map(baseKey).filter((k) => k.replace(/ /g, "").length >= 3);
  return [...new Set(keys)].slice(0, 4);
}
