import { z } from "zod";
import { FeedError } from "./feed-error.js";
import { readDate } from "./hhs-breach-csv.js";

/**
 * The CISA KEV catalogue's JSON schema (`known_exploited_vulnerabilities_schema.json`, draft-07) written as zod:
 * the same required fields, types, CVE and CWE patterns and date formats. Unknown fields are allowed, as the
 * schema allows them. kev-json.test.ts checks this mirror against the published schema file.
 */
const isoDay = z.string().refine((s) => readDate(s) === s, "a date in the format YYYY-MM-DD");

export const KevVulnerabilitySchema = z.looseObject({
  cveID: z.string().regex(/^CVE-[0-9]{4}-[0-9]{4,19}$/, "a CVE id (CVE-YYYY-NNNN)"),
  vendorProject: z.string(),
  product: z.string(),
  vulnerabilityName: z.string(),
  dateAdded: isoDay,
  shortDescription: z.string(),
  requiredAction: z.string(),
  dueDate: isoDay,
  knownRansomwareCampaignUse: z.string().optional(),
  notes: z.string().optional(),
  cwes: z.array(z.string().regex(/^CWE-([0-9])+$/, "a CWE id (CWE-NNN)")).optional(),
});

export const KevCatalogueSchema = z.looseObject({
  catalogVersion: z.string(),
  dateReleased: z.iso.datetime({ offset: true, local: false, precision: undefined }),
  count: z.int(),
  vulnerabilities: z.array(z.unknown()),
});

export type KevVulnerability = z.infer<typeof KevVulnerabilitySchema>;

export interface KevCatalogue {
  readonly catalogVersion: string;
  readonly dateReleased: string;
  readonly vulnerabilities: KevVulnerability[];
}

/** Text limits far above any real entry: a hostile file cannot make one row carry megabytes. */
const MAX_FIELD = 8000;

/**
 * Parses and validates a KEV catalogue. Every fault names the entry (its index in `vulnerabilities`, and its CVE
 * when readable) and the field; `count` must equal the number of entries (a truncated or spliced file fails), and
 * a CVE listed twice is refused. Nothing is returned half-validated.
 */
export function parseKevCatalogue(text: string): KevCatalogue {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new FeedError(
      "feed_malformed",
      `not JSON (${(err as Error).message.slice(0, 120)}); a truncated download reads like this`,
    );
  }
  const top = KevCatalogueSchema.safeParse(raw);
  if (!top.success) {
    const issue = top.error.issues[0]!;
    throw new FeedError(
      "feed_schema_mismatch",
      `not a KEV catalogue: ${issue.path.join(".") || "(top level)"}: ${issue.message}`,
      { column: String(issue.path[0] ?? "") },
    );
  }
  const { catalogVersion, dateReleased, count, vulnerabilities } = top.data;
  if (count !== vulnerabilities.length) {
    throw new FeedError(
      "feed_schema_mismatch",
      `count says ${count} entries but vulnerabilities holds ${vulnerabilities.length} (truncated or edited file)`,
      { column: "count" },
    );
  }
  const seen = new Map<string, number>();
  const out: KevVulnerability[] = [];
  vulnerabilities.forEach((entry, index) => {
    const parsed = KevVulnerabilitySchema.safeParse(entry);
    const cve = typeof (entry as { cveID?: unknown })?.cveID === "string" ? (entry as { cveID: string }).cveID : "";
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? "");
      throw new FeedError(
        "feed_schema_mismatch",
        `vulnerabilities[${index}]${cve ? ` (${cve.slice(0, 30)})` : ""}, field "${field}": ${issue.message}`,
        { row: index, column: field },
      );
    }
    for (const [field, value] of Object.entries(parsed.data)) {
      if (typeof value === "string" && value.length > MAX_FIELD)
        throw new FeedError(
          "feed_bad_value",
          `vulnerabilities[${index}] (${parsed.data.cveID}), field "${field}": ${value.length} characters (at most ${MAX_FIELD})`,
          { row: index, column: field },
        );
    }
    const first = seen.get(parsed.data.cveID);
    if (first !== undefined)
      throw new FeedError(
        "feed_duplicate_rows",
        `vulnerabilities[${index}] repeats ${parsed.data.cveID} of vulnerabilities[${first}]`,
        { row: index, column: "cveID" },
      );
    seen.set(parsed.data.cveID, index);
    out.push(parsed.data);
  });
  return { catalogVersion, dateReleased, vulnerabilities: out };
}
