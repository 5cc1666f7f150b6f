import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Starts a worker thread on an entry module given by its URL without extension (`new URL("./x", import.meta.url)`
 * in the caller). From the TypeScript sources (tests, tsx) the worker loads the .ts entry through tsx; from the
 * build, the compiled .js.
 */
export function startWorkerThread(
  entry: URL,
  workerData: unknown,
  resourceLimits?: ConstructorParameters<typeof Worker>[1] extends infer O
    ? O extends { resourceLimits?: infer R }
      ? R
      : never
    : never,
): Worker {
  const options = { workerData, ...(resourceLimits ? { resourceLimits } : {}) };
  return import.meta.url.endsWith(".ts")
    ? new Worker(throughTsx(`${entry.href}.ts`), { eval: true, ...options })
    : new Worker(new URL(`${entry.href}.js`), options);
}

/**
 * A worker bootstrap that loads a TypeScript entry: registers tsx's loader in the worker thread first (a loader of
 * the parent, or `--import` in execArgv, does not reach workers under every runner), then imports the entry.
 */
function throughTsx(entry: string): string {
  const tsxDir = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const api = pathToFileURL(join(tsxDir, "dist/esm/api/index.mjs")).href;
  return `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
}
