import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeDeployToken, encodeDeployToken } from "./deploy-token.js";
import { base64UrlDecode, base64UrlEncode, crc32Hex } from "./encoding.js";

const parts = {
  serverUrl: "https://127.0.0.1:8443",
  caSha256: "9f".repeat(32),
  secret: "s3cr3t_S3CR3T-abcdefghijklmnopqrstuvwxyz0123",
};

describe("deploy tokens", () => {
  it("round-trip the server URL, CA pin and secret", () => {
    const token = encodeDeployToken(parts);
    expect(token.startsWith("hcsdt1.")).toBe(true);
    expect(decodeDeployToken(token)).toEqual({ ok: true, token: parts });
    expect(decodeDeployToken(`  ${token}\n`)).toEqual({ ok: true, token: parts });
  });

  it("detects every single-character change and truncation", () => {
    const token = encodeDeployToken(parts);
    for (let i = 0; i < token.length; i++) {
      const c = token[i] === "a" ? "b" : "a";
      const tampered = token.slice(0, i) + c + token.slice(i + 1);
      expect(decodeDeployToken(tampered).ok, `position ${i}`).toBe(false);
    }
    expect(decodeDeployToken(token.slice(0, -1))).toEqual({ ok: false, problem: "checksum_mismatch" });
    expect(decodeDeployToken("hcs_live_abc")).toEqual({ ok: false, problem: "malformed" });
    expect(decodeDeployToken("")).toEqual({ ok: false, problem: "malformed" });
  });

  it("a token re-signed with a different URL still decodes, but only the real server knows its hash", () => {
    const forged = encodeDeployToken({ ...parts, serverUrl: "https://evil.example" });
    const d = decodeDeployToken(forged);
    expect(d.ok && d.token.serverUrl).toBe("https://evil.example");
  });

  it("refuses plain http and bad pins at encode time", () => {
    expect(() => encodeDeployToken({ ...parts, serverUrl: "http://127.0.0.1" })).toThrow(TypeError);
    expect(() => encodeDeployToken({ ...parts, caSha256: "xyz" })).toThrow(TypeError);
    expect(() => encodeDeployToken({ ...parts, secret: "short" })).toThrow(TypeError);
  });
});

describe("encoding helpers", () => {
  it("base64url round-trips any bytes and matches Node's encoder", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = base64UrlEncode(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64url"));
        expect(base64UrlDecode(text)).toEqual(bytes);
      }),
    );
    expect(base64UrlDecode("a")).toBeNull();
    expect(base64UrlDecode("ab+/")).toBeNull();
    expect(base64UrlDecode("AB")).toBeNull(); // non-zero leftover bits
  });

  it("crc32 matches the standard check value", () => {
    expect(crc32Hex("123456789")).toBe("cbf43926");
  });
});
