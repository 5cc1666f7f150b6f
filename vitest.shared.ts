import { configDefaults, defineConfig } from "vitest/config";

/**
 * The test tiers (README "Tests"):
 * - `fast` (`npm test`): unit tests and in-process integration — real HTTPS servers, real SQLite and PostgreSQL, but
 *   every server, store and client inside the vitest worker. Every `*.test.ts` that is not an e2e test.
 * - `e2e` (`npm run test:e2e`): what needs other processes or long runs — the `hcs-server` and `hcs-scanner` CLIs as
 *   processes, several server processes, Chromium, an EVM node (anvil) and solc, `npm pack` installs, load and
 *   memory-growth runs. Files named `*.e2e.test.ts`; `test-tiers.test.ts` keeps the fast tier free of them.
 */
export type TestTier = "fast" | "e2e";

export const E2E_TEST_FILES = "src/**/*.e2e.test.ts";

/**
 * The one vitest configuration every workspace extends. Besides the console report, each run writes a JSON report
 * to `.test-results/vitest-<tier>.json` so `npm test` at the root can total the tests across workspaces and fail
 * when a tier ran none.
 */
export function workspaceTestConfig(
  options: {
    tier?: TestTier;
    testTimeout?: number;
    maxWorkers?: number;
    fileParallelism?: boolean;
    /** false: test files of one worker share loaded modules (no test may rely on fresh module state or vi.mock). */
    isolate?: boolean;
    /**
     * Files that measure latency or memory under a load they make themselves: they run after the others, one at a
     * time, so that no other test file competes with them for the two cores (a /healthz p99 bound failed at 58 ms
     * with another e2e file beside it, the server's own CPU per loop turn at 26 ms).
     */
    alone?: readonly string[];
  } = {},
) {
  const tier = options.tier ?? "fast";
  const include = tier === "e2e" ? [E2E_TEST_FILES] : ["src/**/*.test.ts"];
  const exclude = tier === "e2e" ? configDefaults.exclude : [...configDefaults.exclude, E2E_TEST_FILES];
  const alone = options.alone ?? [];
  // Inline projects extend the root's test options and concatenate its arrays: include and exclude are the root's
  // only when there are no projects.
  const files = { include, exclude };
  return defineConfig({
    test: {
      ...(alone.length > 0 ? {} : files),
      testTimeout: options.testTimeout ?? 15_000,
      fileParallelism: options.fileParallelism ?? true,
      ...(options.maxWorkers ? { maxWorkers: options.maxWorkers } : {}),
      ...(options.isolate === false ? { isolate: false } : {}),
      passWithNoTests: false,
      reporters: ["default", ["json", { outputFile: `.test-results/vitest-${tier}.json` }]],
      ...(alone.length > 0
        ? {
            projects: [
              {
                extends: true,
                test: { name: tier, include, exclude: [...exclude, ...alone], sequence: { groupOrder: 0 } },
              },
              {
                extends: true,
                test: {
                  name: `${tier}-alone`,
                  include: [...alone],
                  exclude,
                  fileParallelism: false,
                  sequence: { groupOrder: 1 },
                },
              },
            ],
          }
        : {}),
    },
  });
}
