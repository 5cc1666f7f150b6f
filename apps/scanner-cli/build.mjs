// Bundles the scanner into one plain-JavaScript file (dist/bin.js) with every dependency inside, @hcs/protocol and
// zod included: installing the tarball needs no registry and no native build, on Windows, macOS and Linux.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";

const root = import.meta.dirname;
const result = await build({
  entryPoints: [join(root, "src/bin.ts")],
  // @hcs/protocol from its TypeScript sources, not its build: `npm pack` works on a fresh clone after `npm ci`,
  // before (or without) anything else is built.
  alias: { "@hcs/protocol": join(root, "..", "..", "packages", "protocol", "src", "index.ts") },
  outfile: join(root, "dist/bin.js"),
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
console.log(
  `dist/bin.js: ${(result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].bytes / 1024).toFixed(0)} KiB, ${seen.size} bundled packages`,
);
