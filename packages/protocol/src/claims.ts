import { z } from "zod";
import { CandidateDomainSchema } from "./directory.js";
import { NpiSchema } from "./npi.js";

/** The states of a claim; only `proved` makes the claimant the practice's owner (docs/onboarding.md). */
export const CLAIM_STATUSES = ["pending", "proved", "contested", "lapsed", "superseded", "revoked"] as const;
export const ClaimStatusSchema = z.enum(CLAIM_STATUSES);

/** Where a claimant publishes the challenge: either one proves control of the domain. */
export const CLAIM_PROOF_METHODS = ["dns_txt", "well_known"] as const;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** A domain name as a claim names it: lower case, no scheme, no path, not an IP address. */
export const ClaimDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .refine((d) => DOMAIN.test(d), "must be a domain name such as clinic.example (no scheme, no path)");

export const ClaimRequestSchema = z
  .strictObject({
    npi: NpiSchema,
    /** The practice's domain (its mail and website domain); one of the directory's candidate domains or another. */
    domain: ClaimDomainSchema,
    /** Check the proof now (once the challenge is published): what POST /v1/a2a/claims/{claim_id}/verify does. */
    verify: z.boolean().optional(),
  })
  .meta({ id: "ClaimRequest" });

const ProofCheckSchema = z.object({
  found: z.boolean(),
  /** What the check saw, in words ("TXT record absent (nxdomain)", "200, token found"). */
  detail: z.string(),
});

export const ClaimSchema = z
  .object({
    claim_id: z.string(),
    npi: NpiSchema,
    /** The directory's name for the practice. */
    practice_name: z.string().nullable(),
    domain: z.string(),
    status: ClaimStatusSchema,
    /** True while this claim makes its account the practice's owner (status `proved`). */
    owner: z.boolean(),
    /** How the claim was proved: a DNS TXT record, a file under /.well-known/, or the operator's word. */
    method: z.enum(["dns_txt", "well_known", "operator"]).nullable(),
    /** When it was made and proved, last found, failing since (a proof re-checks no longer find), and lapses. */
    timeline: z.object({
      created_at: z.iso.datetime(),
      proved_at: z.iso.datetime().nullable(),
      last_checked_at: z.iso.datetime().nullable(),
      failing_since: z.iso.datetime().nullable(),
      lapses_at: z.iso.datetime().nullable(),
    }),
    /** Publish one of these, then ask for verification. */
    challenge: z.object({
      token: z.string(),
      dns_txt: z.object({ name: z.string(), value: z.string() }),
      well_known: z.object({ url: z.string(), body: z.string() }),
    }),
    last_check: z.object({ at: z.iso.datetime(), dns_txt: ProofCheckSchema, well_known: ProofCheckSchema }).nullable(),
    /** The domains the practice's NPPES endpoints name. */
    candidate_domains: z.array(CandidateDomainSchema),
    /** What the claim allows now, in words. */
    access: z.string(),
  })
  .meta({ id: "Claim", description: "A claim of a practice (NPI) for a domain, and its proof of control" });
export type Claim = z.infer<typeof ClaimSchema>;

export const ClaimIdInputSchema = z.strictObject({
  claim_id: z.string().regex(/^clm_[A-Za-z0-9_-]{1,64}$/, "a claim id"),
});

export const ClaimListSchema = z.object({ claims: z.array(ClaimSchema) }).meta({ id: "ClaimList" });
