import { workspaceTestConfig } from "../../vitest.shared.js";

export default workspaceTestConfig({ testTimeout: 30_000 });
