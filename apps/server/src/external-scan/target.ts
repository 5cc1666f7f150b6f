import { z } from "zod";
import { ExternalScanError } from "./errors.js";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A DNS name of two or more labels (letters, digits, hyphens; underscores are not host names). */
export function isDomainName(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  const labels = value.split(".");
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels.at(-1)!);
}

export const ScanTargetInputSchema = z.object({
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .transform((d) => d.replace(/\.$/, ""))
    .refine(isDomainName, "domain must be a DNS name such as clinic.example"),
  website: z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, error: "website must be an http or https URL" }))
    .refine((u) => new URL(u).username === "" && new URL(u).password === "", "website must not carry credentials")
    .nullable(),
});
export type ScanTargetInput = z.input<typeof ScanTargetInputSchema>;

/** What the scan examines: the mail domain and the website (the domain's own site when none is known). */
export interface ScanTarget {
  readonly domain: string;
  /** The website's start URL, normalized, always https (a plain-http site is probed over https first). */
  readonly websiteUrl: string;
  /** The website's host name (or IP literal, without brackets). */
  readonly siteHost: string;
  readonly httpsPort: number;
  readonly httpPort: number;
  /** The website as configured, null when it was derived from the domain. */
  readonly configuredWebsite: string | null;
}

/** Validates the practice's domain and website; throws ExternalScanError("invalid_target") when unusable. */
export function parseScanTarget(input: ScanTargetInput): ScanTarget {
  const parsed = ScanTargetInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new ExternalScanError("invalid_target", parsed.error.issues.map((i) => i.message).join("; "));
  }
  const { domain, website } = parsed.data;
  const url = new URL(website ?? `https://${domain}/`);
  const explicitPort = url.port === "" ? null : Number(url.port);
  // A website given as http:// is still checked for HTTPS on the standard port: that is the finding.
  const httpsPort = url.protocol === "https:" && explicitPort !== null ? explicitPort : 443;
  const httpPort = url.protocol === "http:" && explicitPort !== null ? explicitPort : 80;
  const siteHost = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const https = new URL(url.href);
  https.protocol = "https:";
  https.port = httpsPort === 443 ? "" : String(httpsPort);
  https.hash = "";
  return {
    domain,
    websiteUrl: https.href,
    siteHost,
    httpsPort,
    httpPort,
    configuredWebsite: website,
  };
}
