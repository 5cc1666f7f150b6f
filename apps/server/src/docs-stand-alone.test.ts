import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { COMPLIANCE_REQUIREMENTS } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { markedTableRows } from "./test-support/markdown-table.js";

// The repository stands alone: what its code relies on is written in its own docs/, and every pointer into the docs
// (a Markdown link, a `docs/<page>.md#anchor` in a comment) leads somewhere. The design notes and the specification
// the project started from live outside the repository; nothing may cite them. The one outside directory the tests
// may read is the public reference data beside the checkout (test-support/shared-data.ts).

const ROOT = resolve(import.meta.dirname, "..", "..", "..");

/** Tracked files, and new ones not ignored, as git lists them (repository-relative, forward slashes). */
function repositoryFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split("\0").filter((f) => f !== ""))].filter((f) => existsSync(join(ROOT, f)));
}

const TEXT = new Set([
  ".ts",
  ".tsx",
  ".mts",
  ".cts",
  ".js",
  ".mjs",
  ".cjs",
  ".md",
  ".json",
  ".yml",
  ".yaml",
  ".sql",
  ".sh",
]);
const isText = (f: string) => (TEXT.has(extname(f)) || f === ".ci/run") && !f.endsWith("package-lock.json");

const FILES = repositoryFiles();
const TEXT_FILES = FILES.filter(isText);
const MARKDOWN = FILES.filter((f) => f.endsWith(".md"));
const read = (f: string) => readFileSync(join(ROOT, f), "utf8");

// Built from pieces, so that this file does not match what it looks for.
const SECTION = "\u00a7";
const OUTSIDE_CITATIONS: readonly RegExp[] = [
  new RegExp(`\\bDESIGN ${SECTION}`),
  new RegExp(`\\bspec ${SECTION}`, "i"),
  /\bDESIGN\.md\b/,
  new RegExp(`\\bshared/${"seed"}\\b`),
];

/**
 * A `../shared/<x>` path that leads out of the repository and is not the reference data. The scanner's phases have a
 * `shared/` directory of their own (`phases/shared/`, imported by its siblings): a path to a directory the repository
 * has is fine.
 */
function outsideSharedPaths(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/((?:\.\.\/)+)shared\/([A-Za-z0-9_.-]+)/g)) {
    if (m[2] === "data") continue;
    const target = resolve(ROOT, dirname(file), `${m[1]}shared`);
    if (target.startsWith(ROOT + sep) && existsSync(target)) continue;
    found.push(m[0]);
  }
  return found;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

/** Markdown without its fenced code blocks (a `#` there is no heading, a `](` no link). */
const withoutFences = (md: string) => md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");

interface Headings {
  readonly anchors: ReadonlySet<string>;
  readonly titles: readonly string[];
}

const headingsCache = new Map<string, Headings>();
function headingsOf(file: string): Headings {
  let h = headingsCache.get(file);
  if (h) return h;
  const text = withoutFences(read(file));
  const anchors = new Set<string>();
  const titles: string[] = [];
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const title = m[1]!.replace(/`/g, "");
    titles.push(title);
    const slug = headingSlug(title);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  h = { anchors, titles };
  headingsCache.set(file, h);
  return h;
}

/** Why a link from `from` to `target` (a path and an optional #anchor) leads nowhere, or null when it resolves. */
function brokenLink(from: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: — not ours to check
  const hash = target.indexOf("#");
  const path = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? null : target.slice(hash + 1);
  const file =
    path === ""
      ? from
      : relative(ROOT, resolve(ROOT, dirname(from), decodeURI(path)))
          .split(sep)
          .join("/");
  if (!existsSync(join(ROOT, file))) return `${target}: no such file`;
  if (anchor !== null && file.endsWith(".md") && !headingsOf(file).anchors.has(anchor))
    return `${target}: ${file} has no heading #${anchor}`;
  return null;
}

describe("the repository stands alone", () => {
  it("finds the repository's files", () => {
    expect(TEXT_FILES.length).toBeGreaterThan(500);
    expect(MARKDOWN).toContain("docs/architecture.md");
  });

  it("no file cites the design notes, the specification or another path outside the repository", () => {
    const offending: string[] = [];
    for (const f of TEXT_FILES) {
      const text = read(f);
      for (const [i, line] of text.split("\n").entries()) {
        for (const re of OUTSIDE_CITATIONS) if (re.test(line)) offending.push(`${f}:${i + 1}: ${line.trim()}`);
        for (const p of outsideSharedPaths(f, line)) offending.push(`${f}:${i + 1}: ${p}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("the checks themselves catch what they look for", () => {
    const cite = (s: string) => OUTSIDE_CITATIONS.some((re) => re.test(s));
    expect(cite(`the error body (DESIGN ${SECTION}3.2)`)).toBe(true);
    expect(cite(`rate limits (spec ${SECTION}8)`)).toBe(true);
    expect(cite(`RFC 7208 ${SECTION}4.6.4`)).toBe(false);
    const notes = `../shared/${"DESIGN"}.md`;
    expect(outsideSharedPaths("apps/server/src/x.ts", `see ${notes}`)).toEqual([notes]);
    expect(outsideSharedPaths("apps/server/src/x.ts", "read from ../shared/data/conformance")).toEqual([]);
    // The scanner's own phases/shared/ directory, imported relatively, is inside the repository.
    const sibling = `from "../${"shared"}/finding.js"`;
    expect(outsideSharedPaths("apps/scanner-cli/src/phases/mfa/linux.ts", sibling)).toEqual([]);
    expect(brokenLink("docs/api.md", "performance.md#memory")).toBeNull();
    expect(brokenLink("docs/api.md", "performance.md#issue-14-stop-26")).toMatch(/no heading/);
    expect(brokenLink("docs/api.md", "nowhere.md")).toMatch(/no such file/);
    expect(headingSlug("bench/report — one compliance report (HTML and PDF), 2026-11-24")).toBe(
      "benchreport--one-compliance-report-html-and-pdf-2026-11-24",
    );
    expect(headingSlug("The serving process's memory")).toBe("the-serving-processs-memory");
  });

  it("every relative link and #anchor in the repository's Markdown resolves", () => {
    const broken: string[] = [];
    for (const f of MARKDOWN) {
      const text = withoutFences(read(f)).replace(/`[^`\n]*`/g, "");
      const targets = [
        ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
        ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]!),
      ];
      for (const t of targets) {
        const why = brokenLink(f, t);
        if (why) broken.push(`${f}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("every docs/<page>.md a file names exists, with the section it names (#anchor, §number or quoted title)", () => {
    const broken: string[] = [];
    const docRef = /(?<![\w/.-])docs\/([\w.-]+\.md)(?:#([\w-]+)|,? (?:§ ?([\d.]+\d)|"([^"\n]+)"))?/g;
    for (const f of TEXT_FILES) {
      for (const [i, line] of read(f).split("\n").entries()) {
        for (const m of line.matchAll(docRef)) {
          const [, page, anchor, number, title] = m;
          const at = `${f}:${i + 1}: ${m[0]}`;
          const doc = `docs/${page}`;
          if (!existsSync(join(ROOT, doc))) {
            broken.push(`${at}: no such page`);
            continue;
          }
          const h = headingsOf(doc);
          if (anchor !== undefined && !h.anchors.has(anchor)) broken.push(`${at}: no such heading`);
          if (number !== undefined && !h.titles.some((t) => t.startsWith(`${number}.`) || t.startsWith(`${number} `)))
            broken.push(`${at}: no section ${number}`);
          if (title !== undefined && !h.titles.some((t) => t.toLowerCase().includes(title.toLowerCase())))
            broken.push(`${at}: no heading says "${title}"`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("api.md's table of the 13 requirements is @hcs/protocol's, in order", () => {
    const evidence = (e: (typeof COMPLIANCE_REQUIREMENTS)[number]["evidence"][number]) =>
      e.kind === "phase"
        ? `phase \`${e.phase}\``
        : e.kind === "external_check"
          ? `external scan \`${e.category}\``
          : e.kind === "administrative"
            ? `record \`${e.record}\``
            : "HCS's audit log";
    const expected = COMPLIANCE_REQUIREMENTS.map((r) => [
      `\`${r.id}\``,
      r.title,
      r.controls.join(", "),
      r.evidence.map(evidence).join(", "),
    ]);
    expect(markedTableRows(read("docs/api.md"), "requirements-table")).toEqual(expected);
  });
});
