import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

describe("the server's build", () => {
  it("compiles no test code into dist (nothing shipped imports test support, conformance tables, a test, the lab or the sample practices)", () => {
    const files = execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--listFilesOnly"], {
      cwd: root,
      encoding: "utf8",
    })
      .split("\n")
      .filter((f) => f.startsWith(join(root, "src")))
      .map((f) => relative(root, f));
    expect(files.length).toBeGreaterThan(50);
    // Test support, transcribed conformance tables and tests stay out of what ships, and so do the loopback lab and
    // the sample practices that the demo and the tests stand up (nothing a server runs imports them).
    expect(files.filter((f) => /\/(test-support|conformance)\/|\.test\.ts$/.test(f))).toEqual([]);
    expect(files.filter((f) => /^src\/(lab|sample-practices)\//.test(f))).toEqual([]);
  }, 60_000);
});
