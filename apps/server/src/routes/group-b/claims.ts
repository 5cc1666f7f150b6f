import { ClaimIdInputSchema, ClaimListSchema, ClaimRequestSchema, ClaimSchema } from "@hcs/protocol";
import { z } from "zod";
import { defineOperation } from "../../operations/operation.js";
import { claimOfAccount, claimView, createClaim, listClaims, verifyClaim } from "../../services/claims/claims.js";
import { proofIOFor } from "../../services/claims/proof-io.js";

export const claimPracticeOperation = defineOperation({
  id: "claimPractice",
  method: "hipaa.claim_practice",
  group: "b",
  access: { rule: "any_key" },
  example: { npi: "1568946812", domain: "csp-anesthesia.example" },
  summary: "Add a practice by NPI and domain, with proof of control",
  description:
    "Answers a claim with a challenge: publish its TXT record or /.well-known/ file, then call again with " +
    "verify: true. Proved, you own the practice; until then only public answers (docs/onboarding.md). Free.",
  input: ClaimRequestSchema,
  output: ClaimSchema,
  errors: ["invalid_npi", "invalid_body", "npi_not_found", "conflict", "forbidden"],
  readOnly: false,
  // With verify, the proof check reaches the claimed domain's DNS and website.
  openWorld: true,
  implemented: true,
  rest: { method: "post", path: "/v1/a2a/claims", status: 201 },
  async run({ verify, ...input }, call) {
    const claim = await createClaim(call.deps, call.caller!.accountId, input);
    call.setResource(`claim:${claim.claim_id}`);
    if (!verify) return claim;
    const io = proofIOFor(call.deps.config);
    return verifyClaim(call.deps, io, call.caller!.accountId, claim.claim_id, call.requestId);
  },
});

export const verifyClaimOperation = defineOperation({
  id: "verifyClaim",
  group: "b",
  access: { rule: "owner", of: "claim", field: "claim_id" },
  example: { claim_id: "clm_0123456789abcdef" },
  summary: "Check a claim's proof of control (DNS TXT record or well-known file) and, found, take ownership",
  description:
    "The server looks for the claim's challenge through the external scan's resolver and HTTP client — the TXT " +
    "record, or the file served with 200 at its https:// URL (no redirect followed). Found: the claim is proved and " +
    "its account owns the practice — findings, evidence, threats, deploy tokens and Group A open to it — unless " +
    "another account owns it by a proof that still holds, when both stand as `contested` until the operator decides. " +
    "Not found: the claim is unchanged and `last_check` says what each check saw. Free.",
  input: ClaimIdInputSchema,
  output: ClaimSchema,
  errors: ["not_found", "conflict"],
  inputErrors: { claim_id: { code: "not_found", message: "no such claim of your account" } },
  readOnly: false,
  // The check reaches the claimed domain's DNS and website.
  openWorld: true,
  implemented: true,
  rest: { method: "post", path: "/v1/a2a/claims/:claim_id/verify" },
  async run({ claim_id }, call) {
    call.setResource(`claim:${claim_id}`);
    return verifyClaim(call.deps, proofIOFor(call.deps.config), call.caller!.accountId, claim_id, call.requestId);
  },
});

export const getClaimOperation = defineOperation({
  id: "getClaim",
  group: "b",
  access: { rule: "owner", of: "claim", field: "claim_id" },
  example: { claim_id: "clm_0123456789abcdef" },
  summary: "Read one of your claims",
  description:
    "The claim, its challenge, its last check and what it allows now. Only the claiming account may read it. Free.",
  input: ClaimIdInputSchema,
  output: ClaimSchema,
  errors: ["not_found"],
  inputErrors: { claim_id: { code: "not_found", message: "no such claim of your account" } },
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/claims/:claim_id" },
  async run({ claim_id }, call) {
    call.setResource(`claim:${claim_id}`);
    const db = call.deps.store.db;
    return claimView(db, await claimOfAccount(db, claim_id, call.caller!.accountId));
  },
});

export const listClaimsOperation = defineOperation({
  id: "listClaims",
  group: "b",
  access: { rule: "own_account" },
  example: {},
  summary: "List your account's claims",
  description: "Every claim the caller's account made, newest first (at most 200), with its state. Free.",
  input: z.strictObject({}),
  output: ClaimListSchema,
  errors: [],
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/claims" },
  async run(_input, call) {
    return { claims: await listClaims(call.deps.store.db, call.caller!.accountId) };
  },
});
