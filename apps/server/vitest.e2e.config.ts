import { workspaceTestConfig } from "../../vitest.shared.js";

// The e2e tier (README "Tests"): `npm run test:e2e`, or one file with `npx vitest run --config vitest.e2e.config.ts <file>`.
// Two workers on two cores: these files mostly wait for the processes they start, which run on the other core.
// The files that bound latency or memory under their own load run afterwards, alone (see workspaceTestConfig's alone).
export default workspaceTestConfig({
  tier: "e2e",
  testTimeout: 60_000,
  maxWorkers: 2,
  alone: [
    "src/catalogue/scanners/network-upload-load.e2e.test.ts",
    "src/http/anonymous-flood-load.e2e.test.ts",
    "src/reports/report-load.e2e.test.ts",
    "src/util/heap-growth.e2e.test.ts",
  ],
});
