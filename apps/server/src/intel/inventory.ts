import { z } from "zod";

/**
 * What a practice runs, as the scans saw it: a scanner's software list and OS (its asset_inventory and eol phase
 * facts) and the versions its public servers disclose. Facts come from scanners in the field, so they are read
 * leniently: entries that do not fit are skipped, never fatal.
 */
export interface InventoryItem {
  readonly name: string;
  readonly version: string;
  /** Where it was seen: `host:<name>` (scanner) or `site:<host>` (a Server / X-Powered-By header). */
  readonly seenOn: string;
  readonly via: "installed_software" | "operating_system" | "server_banner";
  /**
   * A distribution's build of the product (a banner's `(Ubuntu)` or `-4ubuntu2.18`): its upstream number does not
   * show the fixes the distribution backported, so it is never judged affected by that number (kev-ranges.ts).
   */
  readonly packaged?: boolean;
}

const text = z.string().max(256);
const SoftwareFactsSchema = z.object({ software: z.array(z.unknown()).max(20_000) });
const SoftwareSchema = z.object({ name: text.min(1), version: text });
const EolFactsSchema = z.object({
  dataset_date: z.string().max(32).optional(),
  os: z.object({ name: text, version: text }).partial().optional(),
  products: z.array(z.unknown()).max(5_000).optional(),
});
const EolProductFactSchema = z.object({
  kind: z.enum(["os", "software"]),
  name: text,
  version: text,
  product: z.string().regex(/^[a-z0-9-]{1,64}$/),
  cycle: z.string().max(64),
  status: z.enum(["supported", "eol", "unknown"]),
  eol: z.string().max(32).nullable(),
  /**
   * Whose window the scanner judged it by: `distribution` for a distribution's own build of the product, supported
   * while its release is (the release is the OS entry, judged on its own). Absent from scanners before it was sent.
   */
  support: z.enum(["upstream", "distribution"]).optional(),
});
export type EolProductFact = z.infer<typeof EolProductFactSchema>;

/** The installed software and OS in one upload's facts (by phase id), seen on `host`. */
export function inventoryFromFacts(facts: Record<string, unknown>, host: string): InventoryItem[] {
  const seenOn = `host:${host}`;
  const out: InventoryItem[] = [];
  const software = SoftwareFactsSchema.safeParse(facts.asset_inventory);
  if (software.success) {
    for (const s of software.data.software) {
      const item = SoftwareSchema.safeParse(s);
      if (item.success) out.push({ ...item.data, seenOn, via: "installed_software" });
    }
  }
  const eol = EolFactsSchema.safeParse(facts.eol);
  if (eol.success && eol.data.os?.name)
    out.push({ name: eol.data.os.name, version: eol.data.os.version ?? "", seenOn, via: "operating_system" });
  return out;
}

/** The products the scanner's eol phase identified (endoflife.date ids and cycles), with its own verdicts. */
export function eolFactsOf(
  facts: Record<string, unknown>,
): { datasetDate: string | null; products: EolProductFact[] } | null {
  const eol = EolFactsSchema.safeParse(facts.eol);
  if (!eol.success || !eol.data.products) return null;
  const products: EolProductFact[] = [];
  for (const p of eol.data.products) {
    const parsed = EolProductFactSchema.safeParse(p);
    if (parsed.success) products.push(parsed.data);
  }
  return { datasetDate: eol.data.dataset_date ?? null, products };
}

const DisclosedSchema = z.object({ product: text.min(1), version: text, build: text.nullable().optional() });

/**
 * Build notes of upstream's own builds (Apache's `(Unix)`, `(Win64)`): the version is upstream's. Any other note —
 * a distribution's name, a packaging revision, `-fips` — marks a distribution's build.
 */
const UPSTREAM_BUILD = /^\((?:unix|win32|win64|windows)\)$/i;

/** Versions a site's headers disclosed (the evidence of the external check app.server_disclosure.version). */
export function inventoryFromDisclosure(evidence: unknown, siteHost: string): InventoryItem[] {
  const software = z.object({ software: z.array(z.unknown()).max(50) }).safeParse(evidence);
  if (!software.success) return [];
  return software.data.software.flatMap((s) => {
    const d = DisclosedSchema.safeParse(s);
    if (!d.success) return [];
    // No `build` key: recorded before the check kept build notes, so a distribution's build cannot be ruled out.
    const build = d.data.build === undefined ? "unrecorded" : d.data.build?.trim();
    return [
      {
        name: d.data.product,
        version: d.data.version,
        seenOn: `site:${siteHost}`,
        via: "server_banner" as const,
        ...(build && !UPSTREAM_BUILD.test(build) ? { packaged: true } : {}),
      },
    ];
  });
}
