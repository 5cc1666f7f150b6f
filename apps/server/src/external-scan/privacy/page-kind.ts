import type { PageAnalysis } from "./page-analysis.js";

/**
 * Where a page sits for HHS OCR's tracking guidance: login, portal, scheduling and intake pages are where a
 * visitor's identity meets their health (an appointment, a condition, an account), so trackers there disclose PHI.
 */
export type PageKind = "login" | "portal" | "scheduling" | "intake" | "general";

const SIGNS: readonly [Exclude<PageKind, "general">, RegExp][] = [
  ["login", /\b(log[ _-]?in|sign[ _-]?in|signin|logon|log[ _-]?on)\b/],
  ["portal", /\b(portal|mychart|my[ _-]?health|patient[ _-]?(access|account)|followmyhealth|healow)\b/],
  [
    "scheduling",
    /\b(appointments?|schedul\w*|booking|book[ _-]?(an?[ _-]?)?(appointment|visit|online|now)|request[ _-]an?[ _-](appointment|visit))\b/,
  ],
  [
    "intake",
    /\b(intake|new[ _-]?patients?|patient[ _-]?(registration|forms?|paperwork)|registration|pre[ _-]?register|check[ _-]?in|health[ _-]?history|medical[ _-]?history)\b/,
  ],
];

/** The kind of a URL or link text by its words alone. */
export function kindOfText(text: string): PageKind {
  const t = text.toLowerCase();
  for (const [kind, pattern] of SIGNS) if (pattern.test(t)) return kind;
  return "general";
}

/**
 * Classifies a page by its path and main heading; a password field makes it a login page. Titles are left out:
 * home pages advertise "Book an appointment" in their titles without being scheduling pages.
 */
export function classifyPage(url: string, page: Pick<PageAnalysis, "headings" | "hasPasswordField">): PageKind {
  if (page.hasPasswordField) return "login";
  const byPath = kindOfText(readablePath(url));
  return byPath !== "general" ? byPath : kindOfText(page.headings);
}

function readablePath(url: string): string {
  const path = new URL(url).pathname;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: classify the raw path.
  }
  return decoded.replace(/[/._-]+/g, " ");
}

/** True for the kinds OCR's guidance treats as handling PHI. */
export function isSensitivePageKind(kind: PageKind): boolean {
  return kind !== "general";
}
