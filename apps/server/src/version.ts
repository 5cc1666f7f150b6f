import { readFileSync } from "node:fs";

/** The server package version (read once from package.json, which ships beside dist/). */
export const SERVER_VERSION: string = (() => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
})();
