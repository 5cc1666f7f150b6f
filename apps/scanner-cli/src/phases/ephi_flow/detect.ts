/**
 * Pure ePHI detectors over the head of a file. They return counts only: no function here returns, keeps or
 * logs the text that matched, so nothing downstream can leak it.
 */

export const EPHI_TYPES = ["ssn", "mrn", "dob_with_name", "hl7_v2", "dicom"] as const;
export type EphiType = (typeof EPHI_TYPES)[number];
export type EphiCounts = Partial<Record<EphiType, number>>;

/** SSA rules: area not 000, 666 or 9xx; group not 00; serial not 0000. Dashed form only, to keep false positives low. */
const SSN = /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g;
const MRN = /\b(?:MRN|Medical\s+Record\s+(?:Number|No\.?|#))\s*[:#]?\s*[A-Z]{0,3}\d{5,12}\b/gi;
const DOB = /\b(?:DOB|D\.O\.B\.|Date\s+of\s+Birth|Birth\s*Date)\s*[:#]?\s*\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b/gi;
const NAME_LABEL = /\b(?:Patient(?:\s+Name)?|Name|Last\s+Name|First\s+Name)\s*:/i;
/** An HL7 v2 message starts with an MSH segment (after a line break, or MLLP's vertical-tab start block). */
const HL7_MSH = /(?:^|[\r\n\v])MSH\|\^~\\&/;
const DICOM_MAGIC_OFFSET = 128;

/** DICOM Part 10 files carry "DICM" after a 128-byte preamble. */
export function isDicom(head: Uint8Array): boolean {
  return (
    head.length >= DICOM_MAGIC_OFFSET + 4 &&
    head[128] === 0x44 &&
    head[129] === 0x49 &&
    head[130] === 0x43 &&
    head[131] === 0x4d
  );
}

/** Counts of suspected ePHI in a file's head (bytes as read; binary files other than DICOM count nothing). */
export function detectEphi(head: Uint8Array): EphiCounts {
  if (isDicom(head)) return { dicom: 1 };
  if (looksBinary(head)) return {};
  const text = new TextDecoder("utf-8", { fatal: false }).decode(head);
  const counts: EphiCounts = {};
  const add = (type: EphiType, n: number) => {
    if (n > 0) counts[type] = n;
  };
  if (HL7_MSH.test(text)) add("hl7_v2", (text.match(/(?:^|[\r\n\v])MSH\|/g) ?? []).length);
  add("ssn", countMatches(text, SSN));
  add("mrn", countMatches(text, MRN));
  if (NAME_LABEL.test(text)) add("dob_with_name", countMatches(text, DOB));
  return counts;
}

function countMatches(text: string, pattern: RegExp): number {
  let n = 0;
  pattern.lastIndex = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}

/** A NUL in the first KiB marks a binary file (the heuristic git and grep use). */
function looksBinary(head: Uint8Array): boolean {
  const end = Math.min(head.length, 1024);
  for (let i = 0; i < end; i++) if (head[i] === 0) return true;
  return false;
}
