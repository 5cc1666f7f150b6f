import { workspaceTestConfig } from "../../vitest.shared.js";

// The e2e tier (README "Tests"): `npm run test:e2e`, or one file with `npx vitest run --config vitest.e2e.config.ts <file>`.
export default workspaceTestConfig({ tier: "e2e", testTimeout: 60_000 });
