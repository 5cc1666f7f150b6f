import type { Migration } from "kysely";
import { coreMigration } from "./001-core.js";
import { jobsMigration } from "./002-jobs.js";
import { agentsMigration } from "./003-agents.js";
import { scanUploadSummaryMigration } from "./004-scan-upload-summary.js";
import { webhookReceiverMigration } from "./005-webhook-receiver.js";
import { auditTransportMigration } from "./006-audit-transport.js";
import { jobA2aContextMigration } from "./007-job-a2a-context.js";
import { auditRecordV1Migration } from "./008-audit-record-v1.js";
import { auditLogMigration } from "./009-audit-log.js";
import { auditCheckpointsMigration } from "./010-audit-checkpoints.js";
import { auditOperatorMigration } from "./011-audit-operator.js";
import { auditSequenceRunsMigration } from "./012-audit-sequence-runs.js";
import { auditAnchorsMigration } from "./013-audit-anchors.js";
import { auditAppendCostMigration } from "./014-audit-append-cost.js";
import { threatIntelMigration } from "./015-threat-intel.js";
import { administrativeMigration } from "./016-administrative.js";
import { internalResultsMigration } from "./017-internal-results.js";
import { auditLeafTilesMigration } from "./018-audit-leaf-tiles.js";
import { authChangesMigration } from "./021-auth-changes.js";
import { portalUsersMigration } from "./022-portal-users.js";
import { settleGroupMigration } from "./023-settle-group.js";
import { auditRecordTextMigration } from "./024-audit-record-text.js";
import { auditRecordsTableMigration } from "./025-audit-records-table.js";
import { auditAppendIndexesMigration } from "./026-audit-append-indexes.js";
import { gradeChangesMigration } from "./027-grade-changes.js";
import { jobReportBasisMigration } from "./028-job-report-basis.js";
import { restoreReadinessMigration } from "./029-restore-readiness.js";
import { auditLogKeysMigration } from "./030-audit-log-keys.js";
import { nppesDirectoryMigration } from "./031-nppes-directory.js";
import { practiceClaimsMigration } from "./032-practice-claims.js";
import { accountPlansMigration } from "./033-account-plans.js";
import { formerOwnersEnrolmentsMigration } from "./034-former-owners-enrolments.js";
import type { Engine } from "./engine.js";

/** Every migration, in order. Explicit list: adding a migration means adding a line here. */
export function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    "001-core": coreMigration(engine),
    "002-jobs": jobsMigration(engine),
    "003-agents": agentsMigration(engine),
    "004-scan-upload-summary": scanUploadSummaryMigration(engine),
    "005-webhook-receiver": webhookReceiverMigration(engine),
    "006-audit-transport": auditTransportMigration(engine),
    "007-job-a2a-context": jobA2aContextMigration(engine),
    "008-audit-record-v1": auditRecordV1Migration(engine),
    "009-audit-log": auditLogMigration(engine),
    "010-audit-checkpoints": auditCheckpointsMigration(engine),
    "011-audit-operator": auditOperatorMigration(engine),
    "012-audit-sequence-runs": auditSequenceRunsMigration(engine),
    "013-audit-anchors": auditAnchorsMigration(engine),
    "014-audit-append-cost": auditAppendCostMigration(engine),
    "015-threat-intel": threatIntelMigration(engine),
    "016-administrative": administrativeMigration(engine),
    "017-internal-results": internalResultsMigration(engine),
    "018-audit-leaf-tiles": auditLeafTilesMigration(engine),
    "021-auth-changes": authChangesMigration(engine),
    "022-portal-users": portalUsersMigration(engine),
    "023-settle-group": settleGroupMigration(engine),
    "024-audit-record-text": auditRecordTextMigration(engine),
    "025-audit-records-table": auditRecordsTableMigration(engine),
    "026-audit-append-indexes": auditAppendIndexesMigration(engine),
    "027-grade-changes": gradeChangesMigration(engine),
    "028-job-report-basis": jobReportBasisMigration(engine),
    "029-restore-readiness": restoreReadinessMigration(engine),
    "030-audit-log-keys": auditLogKeysMigration(engine),
    "031-nppes-directory": nppesDirectoryMigration(engine),
    "032-practice-claims": practiceClaimsMigration(engine),
    "033-account-plans": accountPlansMigration(engine),
    "034-former-owners-enrolments": formerOwnersEnrolmentsMigration(),
  };
}
