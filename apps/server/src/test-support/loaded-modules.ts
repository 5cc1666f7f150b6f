import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The module URLs a fresh Node process loads when it imports `entry` (a source file, run through tsx), as a module
 * loading hook sees them: what is loaded, not what the import statements suggest. The import's own failure is
 * ignored: a worker thread's entry throws when imported outside a worker, after its imports have loaded.
 */
export function modulesLoadedBy(entry: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "hcs-loaded-modules-"));
  const list = join(dir, "modules.txt");
  try {
    const hook = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(list)}, url + "\\n"); return next(url, context); }`;
    const main = `import { register } from "node:module";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
await import(${JSON.stringify(pathToFileURL(entry).href)}).catch(() => {});`;
    execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", main], {
      cwd: join(import.meta.dirname, "..", ".."),
      stdio: ["ignore", "ignore", "pipe"],
    });
    return readFileSync(list, "utf8").split("\n").filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The npm packages among module URLs (`zod`, `@koa/router`), by their node_modules directory. */
export function packagesOf(urls: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const url of urls) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) names.add(m[1]!);
  }
  return names;
}

/**
 * Watches which modules a process started later loads: `nodeOptions` goes into its NODE_OPTIONS (a loading hook,
 * registered before the program's own modules load); `loaded()` reads what it loaded so far.
 */
export function moduleWatch(): { nodeOptions: string; loaded(): string[]; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), "hcs-module-watch-"));
  const list = join(dir, "modules.txt");
  const hook = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(list)}, url + "\\n"); return next(url, context); }`;
  const registerFile = join(dir, "register.mjs");
  writeFileSync(
    registerFile,
    `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});\n`,
  );
  return {
    nodeOptions: `--import ${pathToFileURL(registerFile).href}`,
    loaded: () => (existsSync(list) ? readFileSync(list, "utf8").split("\n").filter(Boolean) : []),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
