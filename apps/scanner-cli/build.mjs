// Bundles the scanner into plain-JavaScript files with every dependency inside, @hcs/protocol and zod included:
// installing the tarball needs no registry and no native build, on Windows, macOS and Linux. Two entries: the
// scanner (dist/bin.js) and its probe helper process (dist/probe-helper.js, which the scanner starts from beside its
// own file: src/host/probe-helper/launch.ts).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";

const root = import.meta.dirname;
const result = await build({
  entryPoints: {
    bin: join(root, "src/bin.ts"),
    "probe-helper": join(root, "src/host/probe-helper/main.ts"),
  },
  // @hcs/protocol from its TypeScript sources, not its build: `npm pack` works on a fresh clone after `npm ci`,
  // before (or without) anything else is built.
  alias: { "@hcs/protocol": join(root, "..", "..", "packages", "protocol", "src", "index.ts") },
  outdir: join(root, "dist"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  minify: false,
  sourcemap: false,
  legalComments: "eof",
  metafile: true,
  // CommonJS dependencies bundled into an ES module still call require() for Node built-ins.
  banner: {
    js: 'import { createRequire as __hcsCreateRequire } from "node:module";\nconst require = __hcsCreateRequire(import.meta.url);',
  },
  logLevel: "warning",
});

const fromProtocolBuild = Object.keys(result.metafile.inputs).filter((i) => i.includes("packages/protocol/dist/"));
if (fromProtocolBuild.length > 0)
  throw new Error(`the bundle must not depend on @hcs/protocol's build: ${fromProtocolBuild.join(", ")}`);

// Licenses of everything bundled, for redistribution.
const seen = new Set();
const notices = [];
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (!m || seen.has(m[1])) continue;
  seen.add(m[1]);
  const pkgDir = join(root, "..", "..", "node_modules", m[1]);
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  } catch {
    continue;
  }
  let text = "";
  for (const name of ["LICENSE", "LICENSE.md", "license", "LICENSE.txt", "licence"]) {
    try {
      text = readFileSync(join(pkgDir, name), "utf8");
      break;
    } catch {}
  }
  notices.push(`${pkg.name}@${pkg.version} (${pkg.license ?? "see text"})\n\n${text.trim()}\n`);
}
mkdirSync(dirname(join(root, "dist/THIRD_PARTY_LICENSES.txt")), { recursive: true });
writeFileSync(
  join(root, "dist/THIRD_PARTY_LICENSES.txt"),
  `Bundled in @hcs/scanner-cli:\n\n${notices.sort().join(`\n${"-".repeat(72)}\n\n`)}`,
);
const sizes = Object.entries(result.metafile.outputs)
  .map(([file, o]) => `${file.slice(file.indexOf("dist/"))}: ${(o.bytes / 1024).toFixed(0)} KiB`)
  .join(", ");
console.log(`${sizes}; ${seen.size} bundled packages`);
