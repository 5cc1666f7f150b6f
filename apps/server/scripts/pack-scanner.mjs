// Packs the scanner (apps/scanner-cli) into the directory this server serves it from (HCS_SCANNER_DIR's default,
// dist/scanner-package), as hcs-scanner-<version>.tgz, replacing any other version there: the server then serves the
// exact tarball it was built with (docs/operations.md#the-scanner-package). Run by `npm run build`.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const scanner = join(here, "..", "..", "scanner-cli");
const target = process.argv[2] ?? join(here, "..", "dist", "scanner-package");
const work = mkdtempSync(join(tmpdir(), "hcs-scanner-pack-"));
try {
  // `npm pack` runs the scanner's prepack (its build), so the tarball is made from the sources as they are now.
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", work], {
    cwd: scanner,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The prepack build prints its own lines to stdout before npm's JSON.
  const [packed] = JSON.parse(out.slice(out.indexOf("[")));
  mkdirSync(target, { recursive: true });
  for (const name of readdirSync(target)) if (/^hcs-scanner-.*\.tgz$/.test(name)) rmSync(join(target, name));
  const file = `hcs-scanner-${packed.version}.tgz`;
  copyFileSync(join(work, packed.filename), join(target, file));
  console.log(`scanner package: ${join(target, file)} (${packed.integrity})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
