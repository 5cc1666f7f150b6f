import { workspaceTestConfig } from "../../vitest.shared.js";

// The fast tier (README "Tests"). Three workers on two cores: loading each file's modules is most of this tier's time.
export default workspaceTestConfig({ testTimeout: 30_000, maxWorkers: 3 });
