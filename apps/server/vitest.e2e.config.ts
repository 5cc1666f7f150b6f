import { workspaceTestConfig } from "../../vitest.shared.js";

// The e2e tier (README "Tests"): `npm run test:e2e`, or one file with `npx vitest run --config vitest.e2e.config.ts <file>`.
// Two workers on two cores: these files mostly wait for the processes they start, which run on the other core.
export default workspaceTestConfig({ tier: "e2e", testTimeout: 60_000, maxWorkers: 2 });
