import type { Operation } from "../operations/operation.js";
import {
  createIncidentOperation,
  getIncidentOperation,
  listIncidentsOperation,
  patchIncidentOperation,
} from "./group-a/incidents.js";
import {
  downloadPolicyGroupAOperation,
  generatePoliciesGroupAOperation,
  listPoliciesGroupAOperation,
} from "./group-a/policies.js";
import { practiceOperation } from "./group-a/practice.js";
import { listRestoreTestsOperation, recordRestoreTestOperation } from "./group-a/restore-tests.js";
import { getRiskAssessmentOperation, submitRiskAssessmentOperation } from "./group-a/risk-assessment.js";
import { trainingRecordsOperation, trainingStatusOperation } from "./group-a/training.js";
import { auditProofOperation, evidenceOperation, latestCheckpointOperation } from "./group-b/audit.js";
import { baaOperation } from "./group-b/baa.js";
import { batchOperation } from "./group-b/batch.js";
import {
  claimPracticeOperation,
  getClaimOperation,
  listClaimsOperation,
  verifyClaimOperation,
} from "./group-b/claims.js";
import { complianceDeltaOperation, complianceStateOperation } from "./group-b/compliance.js";
import { controlsOperation } from "./group-b/controls.js";
import { directoryOperation } from "./group-b/directory.js";
import {
  listAgentsOperation,
  listDeployTokensOperation,
  revokeAgentOperation,
  revokeDeployTokenOperation,
} from "./group-b/enrolments.js";
import { findingsOperation } from "./group-b/findings.js";
import { freeKeyOperation } from "./group-b/free-keys.js";
import { gradeOperation } from "./group-b/grade.js";
import {
  breachByNameOperation,
  breachOperation,
  breachProbabilityOperation,
  threatsOperation,
} from "./group-b/intelligence.js";
import { cancelJobOperation, listJobsOperation } from "./group-b/jobs.js";
import { deployTokenOperation, registerAgentOperation, uploadResultsOperation } from "./group-b/network.js";
import { downloadPolicyOperation, policiesOperation } from "./group-b/policies.js";
import { reportOperation } from "./group-b/reports.js";
import { getJobOperation, scanOperation } from "./group-b/scans.js";
import { sraOperation } from "./group-b/sra.js";
import { validateWorkflowOperation } from "./group-b/validate-workflow.js";
import { vendorRiskOperation } from "./group-b/vendor-risk.js";
import { discoveryRoutes } from "./public/discovery.js";
import { downloadRoutes } from "./public/downloads.js";
import { operationsRoutes } from "./public/operations.js";
import { reputationOperation } from "./public/reputation.js";
import type { PublicRoute } from "./route.js";

/**
 * Everything the service does, declared once. The router mounts each operation's REST twin; JSON-RPC methods, MCP
 * tools and A2A skills are bound to the operations with an agent method name; the OpenAPI document, the agent
 * card, the MCP tool list and docs/api.md's method table are generated from (or tested against) this list.
 */
export interface Catalogue {
  readonly operations: readonly Operation[];
  /** Documents and operator endpoints served over HTTP only (agent card, OpenAPI, health, readiness, metrics). */
  readonly publicRoutes: readonly PublicRoute[];
}

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
];

export const CATALOGUE: Catalogue = {
  operations: OPERATIONS,
  publicRoutes: [...operationsRoutes, ...discoveryRoutes(() => CATALOGUE), ...downloadRoutes],
};

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
  for (const r of catalogue.publicRoutes) {
    claim(`id ${r.id}`);
    claim(`route GET ${r.path}`);
  }
}

assertUniqueDeclarations(CATALOGUE);
