import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostFs } from "./fs.js";

describe("host fs", () => {
  let root: string;
  let outside: string;
  const fs = createHostFs();

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "hcs-fs-"));
    outside = await mkdtemp(join(tmpdir(), "hcs-outside-"));
    await writeFile(join(outside, "secret.txt"), "outside the tree");
    await mkdir(join(root, "a", "b", "c"), { recursive: true });
    await writeFile(join(root, "top.txt"), "0123456789");
    await writeFile(join(root, "a", "one.txt"), "1");
    await writeFile(join(root, "a", "b", "two.txt"), "2");
    await writeFile(join(root, "a", "b", "c", "deep.txt"), "3");
    await symlink(outside, join(root, "a", "escape"));
    await symlink(join(outside, "secret.txt"), join(root, "link.txt"));
    await symlink(root, join(root, "a", "loop"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it("walks regular files only and never follows a symlink out of the tree or into a loop", async () => {
    const seen: string[] = [];
    for await (const f of fs.walk(root, { maxFiles: 100, maxDepth: 10 })) seen.push(f.path.slice(root.length));
    expect(seen.sort()).toEqual(["/a/b/c/deep.txt", "/a/b/two.txt", "/a/one.txt", "/top.txt"]);
  });

  it("honours maxDepth and maxFiles", async () => {
    const shallow: string[] = [];
    for await (const f of fs.walk(root, { maxFiles: 100, maxDepth: 1 })) shallow.push(f.path.slice(root.length));
    expect(shallow.sort()).toEqual(["/a/one.txt", "/top.txt"]);
    let count = 0;
    for await (const _ of fs.walk(root, { maxFiles: 2, maxDepth: 10 })) count++;
    expect(count).toBe(2);
  });

  it("reads at most maxBytes and answers null for missing files", async () => {
    expect(await fs.readFile(join(root, "top.txt"), 4)).toBe("0123");
    expect(await fs.readFile(join(root, "missing.txt"))).toBeNull();
    expect(await fs.readBytes(join(root, "a"), 10)).toBeNull();
    expect(await fs.stat(join(root, "a"))).toMatchObject({ isDirectory: true });
    expect(await fs.exists(join(root, "nope"))).toBe(false);
  });

  it.skipIf(process.platform !== "linux")("reads procfs files, whose size reads 0, to their end", async () => {
    const table = await fs.readFile("/proc/net/tcp");
    expect(table).toMatch(/^\s*sl\s+local_address/);
    expect(table!.split("\n").length).toBeGreaterThan(1);
  });
});
