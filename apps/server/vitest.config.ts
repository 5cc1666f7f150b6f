import { workspaceTestConfig } from "../../vitest.shared.js";

// The fast tier (README "Tests"). Three workers on two cores: many of these files spend their time waiting (timeouts,
// retries, a server's answer), and a waiting file leaves its core to another. Files of one worker share loaded
// modules (isolate: false): each file loaded 300+ modules afresh before, more than half of the tier's CPU time. No
// server test mocks modules or relies on fresh module state; caches keyed by data directory or store stay correct.
export default workspaceTestConfig({ testTimeout: 30_000, maxWorkers: 3, isolate: false });
