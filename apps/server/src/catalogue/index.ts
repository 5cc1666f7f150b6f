import type { Catalogue, Operation } from "../operations/operation.js";
import { accountOperation } from "./accounts/account.js";
import { createApiKeyOperation, revokeApiKeyOperation } from "./accounts/api-keys.js";
import { freeKeyOperation } from "./accounts/free-keys.js";
import { baaOperation } from "./administrative/baa.js";
import {
  createIncidentOperation,
  getIncidentOperation,
  listIncidentsOperation,
  patchIncidentOperation,
} from "./administrative/incidents.js";
import {
  downloadPolicyGroupAOperation,
  downloadPolicyOperation,
  generatePoliciesGroupAOperation,
  listPoliciesGroupAOperation,
  policiesOperation,
} from "./administrative/policies.js";
import { listRestoreTestsOperation, recordRestoreTestOperation } from "./administrative/restore-tests.js";
import {
  getRiskAssessmentOperation,
  sraOperation,
  submitRiskAssessmentOperation,
} from "./administrative/risk-assessment.js";
import { trainingRecordsOperation, trainingStatusOperation } from "./administrative/training.js";
import { validateWorkflowOperation } from "./administrative/validate-workflow.js";
import { vendorRiskOperation } from "./administrative/vendor-risk.js";
import { auditProofOperation, evidenceOperation, latestCheckpointOperation } from "./audit/audit.js";
import { complianceDeltaOperation, complianceStateOperation } from "./compliance/compliance.js";
import { controlsOperation } from "./compliance/controls.js";
import { findingsOperation } from "./findings/findings.js";
import { batchOperation } from "./grades/batch.js";
import { gradeOperation } from "./grades/grade.js";
import { reputationOperation } from "./grades/reputation.js";
import {
  breachByNameOperation,
  breachOperation,
  breachProbabilityOperation,
  threatsOperation,
} from "./intelligence/intelligence.js";
import {
  claimPracticeOperation,
  getClaimOperation,
  listClaimsOperation,
  verifyClaimOperation,
} from "./practices/claims.js";
import { directoryOperation } from "./practices/directory.js";
import { practiceOperation } from "./practices/practice.js";
import {
  listAgentsOperation,
  listDeployTokensOperation,
  revokeAgentOperation,
  revokeDeployTokenOperation,
} from "./scanners/enrolments.js";
import { deployTokenOperation, registerAgentOperation, uploadResultsOperation } from "./scanners/network.js";
import { cancelJobOperation, listJobsOperation } from "./scans/jobs.js";
import { reportOperation } from "./scans/reports.js";
import { getJobOperation, scanOperation } from "./scans/scans.js";

/**
 * Every operation, in one literal list: the agent methods in the order of docs/api.md's method table (docs.test.ts
 * holds the two equal), then the REST-only operations.
 */
export const OPERATIONS: readonly Operation[] = [
  gradeOperation,
  scanOperation,
  findingsOperation,
  breachOperation,
  sraOperation,
  policiesOperation,
  baaOperation,
  evidenceOperation,
  validateWorkflowOperation,
  breachProbabilityOperation,
  vendorRiskOperation,
  batchOperation,
  reputationOperation,
  controlsOperation,
  complianceStateOperation,
  complianceDeltaOperation,
  directoryOperation,
  claimPracticeOperation,
  accountOperation,
  // REST only
  breachByNameOperation,
  threatsOperation,
  getJobOperation,
  reportOperation,
  listJobsOperation,
  cancelJobOperation,
  freeKeyOperation,
  getClaimOperation,
  listClaimsOperation,
  verifyClaimOperation,
  deployTokenOperation,
  registerAgentOperation,
  uploadResultsOperation,
  listAgentsOperation,
  revokeAgentOperation,
  listDeployTokensOperation,
  revokeDeployTokenOperation,
  latestCheckpointOperation,
  auditProofOperation,
  practiceOperation,
  createIncidentOperation,
  listIncidentsOperation,
  getIncidentOperation,
  patchIncidentOperation,
  listPoliciesGroupAOperation,
  generatePoliciesGroupAOperation,
  downloadPolicyGroupAOperation,
  downloadPolicyOperation,
  getRiskAssessmentOperation,
  submitRiskAssessmentOperation,
  trainingStatusOperation,
  trainingRecordsOperation,
  recordRestoreTestOperation,
  listRestoreTestsOperation,
  // The portal only (no REST twin, no agent method)
  createApiKeyOperation,
  revokeApiKeyOperation,
];

export const CATALOGUE: Catalogue = { operations: OPERATIONS };

/** Fails at start-up on a declaration that would shadow another (duplicate id, agent method or REST route). */
export function assertUniqueDeclarations(catalogue: Catalogue): void {
  const seen = new Set<string>();
  const claim = (key: string) => {
    if (seen.has(key)) throw new Error(`catalogue: ${key} is declared twice`);
    seen.add(key);
  };
  for (const op of catalogue.operations) {
    claim(`id ${op.id}`);
    if (op.method) claim(`method ${op.method}`);
    if (op.rest) claim(`route ${op.rest.method.toUpperCase()} ${op.rest.path}`);
  }
}

assertUniqueDeclarations(CATALOGUE);
