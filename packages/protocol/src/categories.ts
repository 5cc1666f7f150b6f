import { z } from "zod";

/** Where a finding or a category's data comes from. */
export const SOURCES = ["external", "internal", "administrative"] as const;
export const SourceSchema = z.enum(SOURCES);
export type Source = z.infer<typeof SourceSchema>;

/**
 * Score categories with their source and weight (integers summing to 100, docs/scoring.md#2-categories-and-weights).
 * Changing a weight changes grades: bump SCORING_VERSION with it.
 */
export const CATEGORIES = {
  email_security: { source: "external", weight: 10, title: "Email security (SPF, DKIM, DMARC, MTA-STS)" },
  application_security: { source: "external", weight: 15, title: "Website and exposed services security" },
  privacy_compliance: { source: "external", weight: 10, title: "Privacy: trackers, privacy notice, form transport" },
  encryption: { source: "internal", weight: 15, title: "Encryption at rest and in transit inside the practice" },
  access_control: { source: "internal", weight: 10, title: "Access control and authentication" },
  network_security: { source: "internal", weight: 10, title: "Network exposure and segmentation" },
  asset_management: { source: "internal", weight: 10, title: "Assets, patches, end-of-life and ePHI locations" },
  contingency: { source: "internal", weight: 10, title: "Backups and restore readiness" },
  administrative_safeguards: {
    source: "administrative",
    weight: 10,
    title: "Risk assessment, policies, training, BAAs, incidents",
  },
} as const satisfies Record<string, { source: Source; weight: number; title: string }>;

export type CategoryName = keyof typeof CATEGORIES;
export const CATEGORY_NAMES = Object.keys(CATEGORIES) as CategoryName[];
export const CategoryNameSchema = z.enum(CATEGORY_NAMES as [CategoryName, ...CategoryName[]]);

/** Categories that one source provides data for, in table order. */
export function categoriesOfSource(source: Source): CategoryName[] {
  return CATEGORY_NAMES.filter((c) => CATEGORIES[c].source === source);
}

export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export const SeveritySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof SeveritySchema>;

export const GRADES = ["A", "B", "C", "D", "F"] as const;
export const GradeSchema = z.enum(GRADES);
export type Grade = z.infer<typeof GradeSchema>;
