import { describe, expect, it } from "vitest";
import { decodeOutput, isNotFound, isPermissionDenied } from "./exec-classify.js";

const base = { spawnCode: undefined, exitCode: 1, stdout: "", stderr: "" };

describe("exec outcome classification", () => {
  it("reads a missing executable from the spawn error, shell exit codes and the shells' own words", () => {
    expect(isNotFound({ ...base, spawnCode: "ENOENT", exitCode: null })).toBe(true);
    expect(isNotFound({ ...base, exitCode: 127 })).toBe(true);
    expect(isNotFound({ ...base, exitCode: 9009 })).toBe(true);
    expect(
      isNotFound({
        ...base,
        stderr: "'manage-bde' is not recognized as an internal or external command,\r\noperable program or batch file.",
      }),
    ).toBe(true);
    expect(isNotFound({ ...base, stderr: "E: some apt failure" })).toBe(false);
  });

  it("reads a privilege refusal from sudo, sshd, manage-bde and EACCES", () => {
    expect(isPermissionDenied({ ...base, spawnCode: "EACCES", exitCode: null })).toBe(true);
    expect(
      isPermissionDenied({
        ...base,
        stderr: "cryptsetup: Cannot initialize device-mapper. Is dm_mod kernel module loaded?\nPermission denied",
      }),
    ).toBe(true);
    expect(isPermissionDenied({ ...base, stderr: "sshd: must be run as root" })).toBe(true);
    expect(
      isPermissionDenied({
        ...base,
        stdout: "ERROR: An attempt to access a required resource was denied.\nAccess is denied.",
      }),
    ).toBe(true);
    expect(isPermissionDenied({ ...base, exitCode: 0, stderr: "Permission denied" })).toBe(false);
    expect(isPermissionDenied({ ...base, stderr: "no such device" })).toBe(false);
  });

  it("decodes UTF-16LE output of Windows tools, with or without a BOM", () => {
    const text = "HotFixID  InstalledOn\r\nKB5034441  1/9/2024\r\n";
    const utf16 = new Uint8Array(Buffer.from(text, "utf16le"));
    expect(decodeOutput(utf16)).toBe(text);
    expect(decodeOutput(new Uint8Array([0xff, 0xfe, ...utf16]))).toBe(text);
    expect(decodeOutput(new TextEncoder().encode("plain ascii ✓"))).toBe("plain ascii ✓");
  });
});
