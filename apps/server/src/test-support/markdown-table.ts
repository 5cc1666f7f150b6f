/**
 * The rows of a generated table in a document: the lines between `<!-- name … -->` and `<!-- /name -->` that start
 * with "| `", split into trimmed cells. Throws when the markers are missing, so a test cannot pass on a table that
 * was deleted.
 */
export function markedTableRows(doc: string, name: string): string[][] {
  const table = new RegExp(`<!-- ${name}[^>]*-->([\\s\\S]*?)<!-- /${name} -->`).exec(doc)?.[1];
  if (table === undefined) throw new Error(`no <!-- ${name} --> table in the document`);
  return table
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .map((l) =>
      l
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}
