import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadScannerPackage, npmInstallCommand } from "./scanner-package.js";

const dirs: string[] = [];
const dirWith = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), "hcs-downloads-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("loadScannerPackage", () => {
  it("reads the one hcs-scanner-<version>.tgz with its SHA-256 and sha512 integrity", () => {
    const lookup = loadScannerPackage(dirWith({ "hcs-scanner-1.2.3-rc.1.tgz": "tarball", "notes.txt": "x" }));
    expect(lookup.ok).toBe(true);
    if (!lookup.ok) return;
    expect(lookup.pkg).toMatchObject({
      version: "1.2.3-rc.1",
      file: "hcs-scanner-1.2.3-rc.1.tgz",
      sha256: createHash("sha256").update("tarball").digest("hex"),
      integrity: `sha512-${createHash("sha512").update("tarball").digest("base64")}`,
    });
    expect(npmInstallCommand("https://hcs.example:8443/", lookup.pkg)).toBe(
      "npm install --global https://hcs.example:8443/downloads/hcs-scanner-1.2.3-rc.1.tgz --cafile ./hcs-ca.pem",
    );
  });

  it("says why there is none: a missing directory, no tarball, or two of them", () => {
    const missing = loadScannerPackage(join(tmpdir(), "hcs-no-such-dir-4f1c"));
    expect(missing).toMatchObject({ ok: false, reason: expect.stringContaining("ENOENT") });
    expect(loadScannerPackage(dirWith({ "hcs-scanner-cli-0.1.0.tgz": "x" }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining("no hcs-scanner-<version>.tgz"),
    });
    expect(loadScannerPackage(dirWith({ "hcs-scanner-0.1.0.tgz": "a", "hcs-scanner-0.2.0.tgz": "b" }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining("keep exactly one"),
    });
  });
});
