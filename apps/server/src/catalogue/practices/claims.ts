import { bindOperation } from "../../operations/operation.js";
import { claimOfAccount, claimView, createClaim, listClaims, verifyClaim } from "../../services/claims/claims.js";
import { proofIOFor } from "../../services/claims/proof-io.js";
import {
  claimPracticeDeclaration,
  getClaimDeclaration,
  listClaimsDeclaration,
  verifyClaimDeclaration,
} from "./claims.declaration.js";

export const claimPracticeOperation = bindOperation(claimPracticeDeclaration, async ({ verify, ...input }, call) => {
  const claim = await createClaim(call.deps, call.caller!.accountId, input);
  call.setResource(`claim:${claim.claim_id}`);
  if (!verify) return claim;
  const io = proofIOFor(call.deps.config);
  return verifyClaim(call.deps, io, call.caller!.accountId, claim.claim_id, call.requestId);
});

export const verifyClaimOperation = bindOperation(verifyClaimDeclaration, async ({ claim_id }, call) => {
  call.setResource(`claim:${claim_id}`);
  return verifyClaim(call.deps, proofIOFor(call.deps.config), call.caller!.accountId, claim_id, call.requestId);
});

export const getClaimOperation = bindOperation(getClaimDeclaration, async ({ claim_id }, call) => {
  call.setResource(`claim:${claim_id}`);
  const db = call.deps.store.db;
  return claimView(db, await claimOfAccount(db, claim_id, call.caller!.accountId));
});

export const listClaimsOperation = bindOperation(listClaimsDeclaration, async (_input, call) => {
  return { claims: await listClaims(call.deps.store.db, call.caller!.accountId) };
});
