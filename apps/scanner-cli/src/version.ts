import { readFileSync } from "node:fs";

/** The scanner's version, from the package.json that ships beside dist/ (and beside src/ in the repository). */
export const SCANNER_VERSION: string = (() => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
})();
