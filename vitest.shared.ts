import { defineConfig } from "vitest/config";

/**
 * The one vitest configuration every workspace extends. Besides the console report, each run writes a JSON
 * report to `.test-results/vitest.json` so `npm test` at the root can total the tests across workspaces and
 * fail when none ran.
 */
export function workspaceTestConfig(
  options: { include?: string[]; testTimeout?: number; fileParallelism?: boolean } = {},
) {
  return defineConfig({
    test: {
      include: options.include ?? ["src/**/*.test.ts"],
      testTimeout: options.testTimeout ?? 15_000,
      fileParallelism: options.fileParallelism ?? true,
      passWithNoTests: false,
      reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
    },
  });
}
