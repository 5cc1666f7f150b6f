import { entityNameKeys } from "./entity-names.js";

/**
 * How sure a breach record is the practice's: 1.0 when the names are identical once case, spacing and
 * punctuation are ignored; 0.9 when they are equal only after legal suffixes, "The", "&"/"and" and word forms
 * (Ctr/Center…) are folded; 0.8 when the practice's name equals one of the record's d/b/a names or the other way
 * round. Always in the same state. Anything else is no match: two different practices often share most of a name
 * ("Jefferson Dental Center" and "Jefferson Dental Clinic"), so there is no partial-similarity tier.
 */
export interface NameMatch {
  readonly confidence: number;
  readonly basis: "identical_name" | "normalized_name" | "dba_name";
}

const plain = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

export function matchEntityName(practiceName: string, recordName: string): NameMatch | null {
  if (plain(practiceName) !== "" && plain(practiceName) === plain(recordName))
    return { confidence: 1, basis: "identical_name" };
  const a = entityNameKeys(practiceName);
  const b = entityNameKeys(recordName);
  if (a.length === 0 || b.length === 0) return null;
  if (a[0] === b[0]) return { confidence: 0.9, basis: "normalized_name" };
  if (a.some((k) => b.includes(k))) return { confidence: 0.8, basis: "dba_name" };
  return null;
}
