import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository's root, where README.md and docs/ are. */
export const REPO_ROOT = join(import.meta.dirname, "..", "..", "..", "..");

/** A document of the repository as it is now (README.md, docs/operations.md, …). */
export const repoDoc = (path: string) => readFileSync(join(REPO_ROOT, path), "utf8");

/**
 * The code block whose info string is "<lang> <name>" (```sh backup-sqlite), as a person copies it. Throws when there
 * is none, so a test cannot pass on a block that was deleted or renamed.
 */
export function namedBlock(doc: string, lang: string, name: string): string {
  const code = new RegExp(`\`\`\`${lang} ${name}\\n([\\s\\S]*?)\`\`\``).exec(doc)?.[1];
  if (code === undefined) throw new Error(`no \`\`\`${lang} ${name} block in the document`);
  return code;
}

/**
 * The command of the line of a ```sh block that starts with `prefix` (README's `npm run demo -- --keep-running   #
 * what it does`), without its trailing comment. Throws when no such line exists.
 */
export function documentedCommand(doc: string, prefix: string): string {
  const blocks = [...doc.matchAll(/```sh[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const line = blocks
    .flatMap((b) => b.split("\n"))
    .map((l) => l.trim())
    .find((l) => l.startsWith(prefix));
  if (line === undefined) throw new Error(`no documented command starting with ${JSON.stringify(prefix)}`);
  // A comment starts at a # after whitespace (a # inside a word, as in a URL's fragment, does not).
  return line.replace(/\s+#.*$/, "");
}
