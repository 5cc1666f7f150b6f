import { declareOperation } from "../../operations/operation.js";
import {
  ListRestoreTestsInputSchema,
  RecordRestoreTestInputSchema,
  RestoreTestListSchema,
  RestoreTestViewSchema,
} from "../../readiness/restore-tests-schema.js";

export const recordRestoreTestDeclaration = declareOperation({
  id: "recordRestoreTest",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: {
    npi: "1234567893",
    tested_on: "2026-10-05",
    system: "ehr-server",
    data_restored: "EHR database and scanned documents, to a spare server",
    time_to_restore_minutes: 190,
    outcome: "succeeded",
  },
  summary: "Record a restore test of one of the practice's systems (contingency plan testing)",
  description:
    "The day a backup of a system was restored, what was restored, how long it took until the data was usable and " +
    "whether it worked. Requirement 6 is met when every system that holds ePHI was restored within the last 12 months " +
    "in under 72 hours and backups are recent: name a scanner host by its host name (`ehr-server`) for the test to " +
    "count for it. Describe systems and data, never patients.",
  input: RecordRestoreTestInputSchema,
  output: RestoreTestViewSchema,
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: false,
  openWorld: false,
  rest: { method: "post", path: "/v1/restore-tests", status: 201 },
});

export const listRestoreTestsDeclaration = declareOperation({
  id: "listRestoreTests",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: { npi: "1234567893" },
  summary: "The practice's restore tests",
  description:
    "Most recent first, each with whether it is current (within 12 months) and took under 72 hours, as of today.",
  input: ListRestoreTestsInputSchema,
  output: RestoreTestListSchema,
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/restore-tests" },
});
