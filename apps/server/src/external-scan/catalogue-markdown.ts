import { CHECK_CATALOGUE, NOT_ASSESSED_STATUSES } from "./finding-catalogue.js";

/** Markers around the generated table in CHECKS.md. */
export const CATALOGUE_TABLE_START = "<!-- check-catalogue:start (generated from finding-catalogue.ts) -->";
export const CATALOGUE_TABLE_END = "<!-- check-catalogue:end -->";

/** The findings table of CHECKS.md, rendered from the check catalogue. */
export function renderCatalogueTable(): string {
  const rows = CHECK_CATALOGUE.flatMap((entry) =>
    entry.findings.map((kind, i) => {
      const severity = typeof kind.severity === "string" ? kind.severity : kind.severity.join(" or ");
      const check = i === 0 ? `\`${entry.check}\` (${entry.category})` : "";
      const cap = kind.grade_cap ? `\`${kind.grade_cap}\`` : "";
      return `| ${check} | \`${kind.check_id}\` | ${severity} | ${kind.controls.join(", ")} | ${cap} | ${kind.summary} |`;
    }),
  );
  const notAssessed = `| every check | \`<check>.{${NOT_ASSESSED_STATUSES.join(",")}}\` | info | 164.308(a)(8) | | the check could not assess its subject |`;
  return [
    CATALOGUE_TABLE_START,
    "| check (category) | check_id | severity | controls (45 CFR) | grade cap | when |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    notAssessed,
    CATALOGUE_TABLE_END,
  ].join("\n");
}
