import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureDir } from "./ensure-dir.js";

const root = mkdtempSync(join(tmpdir(), "hcs-ensure-dir-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("ensureDir", () => {
  it("makes every missing directory with the mode, and accepts one that exists", () => {
    const dir = join(root, "a", "b", "c");
    ensureDir(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(statSync(join(root, "a")).mode & 0o777).toBe(0o700);
    ensureDir(dir);
  });

  it("fails at once with the path where a file stands in the way", () => {
    const file = join(root, "file");
    writeFileSync(file, "");
    expect(() => ensureDir(join(file, "x", "y"))).toThrow(expect.objectContaining({ code: "ENOTDIR" }));
  });

  it.skipIf(process.platform !== "linux")("fails at once under /proc, where Node's recursive mkdir spins", () => {
    const started = Date.now();
    expect(() => ensureDir("/proc/hcs-scanner-test/cfg")).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
