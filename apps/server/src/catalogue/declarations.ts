import type { OperationDeclaration } from "../operations/operation.js";
import { accountDeclaration } from "./accounts/account.declaration.js";
import { createApiKeyDeclaration, revokeApiKeyDeclaration } from "./accounts/api-keys.declaration.js";
import { freeKeyDeclaration } from "./accounts/free-keys.declaration.js";
import { baaDeclaration } from "./administrative/baa.declaration.js";
import {
  createIncidentDeclaration,
  getIncidentDeclaration,
  listIncidentsDeclaration,
  patchIncidentDeclaration,
} from "./administrative/incidents.declaration.js";
import {
  generatePoliciesGroupADeclaration,
  policyDownloadCapability,
  policyListCapability,
} from "./administrative/policies.declaration.js";
import {
  listRestoreTestsDeclaration,
  recordRestoreTestDeclaration,
} from "./administrative/restore-tests.declaration.js";
import {
  getRiskAssessmentDeclaration,
  riskAssessmentCapability,
} from "./administrative/risk-assessment.declaration.js";
import { trainingRecordsDeclaration, trainingStatusDeclaration } from "./administrative/training.declaration.js";
import { validateWorkflowDeclaration } from "./administrative/validate-workflow.declaration.js";
import { vendorRiskDeclaration } from "./administrative/vendor-risk.declaration.js";
import { auditProofDeclaration, evidenceDeclaration, latestCheckpointDeclaration } from "./audit/audit.declaration.js";
import { complianceDeltaDeclaration, complianceStateDeclaration } from "./compliance/compliance.declaration.js";
import { controlsDeclaration } from "./compliance/controls.declaration.js";
import { findingsDeclaration } from "./findings/findings.declaration.js";
import { batchDeclaration } from "./grades/batch.declaration.js";
import { gradeDeclaration } from "./grades/grade.declaration.js";
import { reputationDeclaration } from "./grades/reputation.declaration.js";
import {
  breachByNameDeclaration,
  breachDeclaration,
  breachProbabilityDeclaration,
  threatsDeclaration,
} from "./intelligence/intelligence.declaration.js";
import {
  claimPracticeDeclaration,
  getClaimDeclaration,
  listClaimsDeclaration,
  verifyClaimDeclaration,
} from "./practices/claims.declaration.js";
import { directoryDeclaration } from "./practices/directory.declaration.js";
import { practiceDeclaration } from "./practices/practice.declaration.js";
import {
  listAgentsDeclaration,
  listDeployTokensDeclaration,
  revokeAgentDeclaration,
  revokeDeployTokenDeclaration,
} from "./scanners/enrolments.declaration.js";
import {
  deployTokenDeclaration,
  registerAgentDeclaration,
  uploadResultsDeclaration,
} from "./scanners/network.declaration.js";
import { cancelJobDeclaration, listJobsDeclaration } from "./scans/jobs.declaration.js";
import { reportDeclaration } from "./scans/reports.declaration.js";
import { getJobDeclaration, scanDeclaration } from "./scans/scans.declaration.js";

/**
 * Every operation's declaration — metadata only, no handler — in the catalogue's order (index.ts binds the handlers;
 * catalogue.test.ts holds the two lists equal). What is made from the metadata alone imports this list: the OpenAPI
 * document, the agent card, the MCP tool list, docs/api.md's tables.
 */
export const DECLARATIONS: readonly OperationDeclaration[] = [
  gradeDeclaration,
  scanDeclaration,
  findingsDeclaration,
  breachDeclaration,
  riskAssessmentCapability.groupB,
  policyListCapability.groupB,
  baaDeclaration,
  evidenceDeclaration,
  validateWorkflowDeclaration,
  breachProbabilityDeclaration,
  vendorRiskDeclaration,
  batchDeclaration,
  reputationDeclaration,
  controlsDeclaration,
  complianceStateDeclaration,
  complianceDeltaDeclaration,
  directoryDeclaration,
  claimPracticeDeclaration,
  accountDeclaration,
  // REST only
  breachByNameDeclaration,
  threatsDeclaration,
  getJobDeclaration,
  reportDeclaration,
  listJobsDeclaration,
  cancelJobDeclaration,
  freeKeyDeclaration,
  getClaimDeclaration,
  listClaimsDeclaration,
  verifyClaimDeclaration,
  deployTokenDeclaration,
  registerAgentDeclaration,
  uploadResultsDeclaration,
  listAgentsDeclaration,
  revokeAgentDeclaration,
  listDeployTokensDeclaration,
  revokeDeployTokenDeclaration,
  latestCheckpointDeclaration,
  auditProofDeclaration,
  practiceDeclaration,
  createIncidentDeclaration,
  listIncidentsDeclaration,
  getIncidentDeclaration,
  patchIncidentDeclaration,
  policyListCapability.groupA,
  generatePoliciesGroupADeclaration,
  policyDownloadCapability.groupA,
  policyDownloadCapability.groupB,
  getRiskAssessmentDeclaration,
  riskAssessmentCapability.groupA,
  trainingStatusDeclaration,
  trainingRecordsDeclaration,
  recordRestoreTestDeclaration,
  listRestoreTestsDeclaration,
  // The portal only (no REST twin, no agent method)
  createApiKeyDeclaration,
  revokeApiKeyDeclaration,
];
