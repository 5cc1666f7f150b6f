import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64Decode, base64Encode, utf8Bytes } from "../encoding.js";
import { formatCheckpoint, parseCheckpoint } from "./checkpoint.js";
import {
  type Ed25519Verify,
  formatNote,
  formatVerifierKey,
  noteKeyHash,
  openNote,
  parseNote,
  parseVerifierKey,
} from "./signed-note.js";
import { merkleRoot, RFC9162 } from "./tree.js";

// The example of golang.org/x/mod/sumdb/note (BSD-3-Clause), which C2SP signed-note cites: a signer key (0x01 and
// the 32-byte Ed25519 seed, base64), its verifier key, the text, and the published signed note. Ed25519 signatures
// are deterministic (RFC 8032), so signing the text with the seed must give this exact note.
const SIGNER_KEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
const VERIFIER_KEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const SIGNED =
  `${TEXT}\n` +
  "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const privateKeyOfSeed = (seed: Uint8Array) =>
  createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: "der", type: "pkcs8" });
const rawPublicKey = (key: ReturnType<typeof createPrivateKey>) =>
  new Uint8Array(Buffer.from(createPublicKey(key).export({ format: "jwk" }).x!, "base64url"));
const nodeVerify: Ed25519Verify = (publicKey, message, signature) =>
  verify(
    null,
    message,
    createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKey).toString("base64url") },
      format: "jwk",
    }),
    signature,
  );

describe("C2SP signed notes", () => {
  const seed = base64Decode(SIGNER_KEY.split("+").slice(4).join("+"))!.slice(1);
  const privateKey = privateKeyOfSeed(seed);
  const publicKey = rawPublicKey(privateKey);

  it("reproduce the published example byte for byte, and its verifier key", () => {
    expect(formatVerifierKey("PeterNeumann", publicKey)).toBe(VERIFIER_KEY);
    const signature = new Uint8Array(sign(null, Buffer.from(TEXT), privateKey));
    const note = formatNote(TEXT, [
      { name: "PeterNeumann", keyHash: noteKeyHash("PeterNeumann", publicKey), signature },
    ]);
    expect(note).toBe(SIGNED);
  });

  it("open with the verifier key, and refuse altered text, other keys and malformed notes", () => {
    const key = parseVerifierKey(VERIFIER_KEY)!;
    expect(key.keyHash).toBe(0xc74f20a3);
    expect(openNote(SIGNED, key, nodeVerify)).toEqual({ ok: true, text: TEXT });
    expect(openNote(SIGNED.replace("cryptography", "cryptographY"), key, nodeVerify)).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    const other = generateKeyPairSync("ed25519").privateKey;
    const otherKey = parseVerifierKey(formatVerifierKey("PeterNeumann", rawPublicKey(other)))!;
    expect(openNote(SIGNED, otherKey, nodeVerify)).toEqual({ ok: false, reason: "unsigned" });
    for (const bad of [TEXT, SIGNED.slice(0, -1), SIGNED.replace("\u2014", "-"), SIGNED.replace(" x08", "  x08")])
      expect(openNote(bad, key, nodeVerify)).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuse verifier keys that are mangled anywhere", () => {
    expect(parseVerifierKey(VERIFIER_KEY)).not.toBeNull();
    for (let i = 0; i < VERIFIER_KEY.length; i++) {
      const c = VERIFIER_KEY.charCodeAt(i);
      expect(
        parseVerifierKey(VERIFIER_KEY.slice(0, i) + String.fromCharCode(c + 1) + VERIFIER_KEY.slice(i + 1)),
      ).toBeNull();
      expect(parseVerifierKey(VERIFIER_KEY.slice(0, i))).toBeNull();
    }
  });

  it("keep several signatures and any text through a format/parse round trip", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }).map((s) => `${s}\n`),
        fc.array(
          fc.record({
            name: fc.stringMatching(/^[a-z0-9./-]{1,20}$/),
            keyHash: fc.nat({ max: 0xffffffff }),
            signature: fc.uint8Array({ minLength: 1, maxLength: 64 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        (text, signatures) => {
          const parsed = parseNote(formatNote(text, signatures));
          expect(parsed?.text).toBe(text);
          expect(parsed?.signatures).toEqual(signatures);
        },
      ),
    );
  });
});

describe("C2SP checkpoints", () => {
  const root = merkleRoot(RFC9162, [RFC9162.leaf(new Uint8Array([1]))]);

  it("format as origin, decimal size and base64 root, one per line, and parse back", () => {
    const text = formatCheckpoint({ origin: "hcs.example.org/audit", size: 1, rootHash: root, extensions: [] });
    expect(text).toBe(`hcs.example.org/audit\n1\n${base64Encode(root)}\n`);
    expect(parseCheckpoint(text)).toEqual({ origin: "hcs.example.org/audit", size: 1, rootHash: root, extensions: [] });
  });

  it("refuse bodies that are not exactly the format", () => {
    const r = base64Encode(root);
    for (const bad of [
      `o\n1\n${r}`,
      `\n1\n${r}\n`,
      `o\n01\n${r}\n`,
      `o\n-1\n${r}\n`,
      `o\n1.0\n${r}\n`,
      `o\n99999999999999999999\n${r}\n`,
      `o\n1\n${r.slice(0, -4)}\n`,
      `o\n1\n${r.replace(/=$/, "")}\n`,
      `o\n1\n${r}\n\n`,
      "o\n1\n",
    ])
      expect(parseCheckpoint(bad)).toBeNull();
    expect(parseCheckpoint(`o\n1\n${r}\next one\n`)?.extensions).toEqual(["ext one"]);
  });
});

describe("UTF-8 bytes without TextEncoder", () => {
  it("match TextEncoder on any text, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(Buffer.from(utf8Bytes(s)).toString("hex")).toBe(
          Buffer.from(new TextEncoder().encode(s)).toString("hex"),
        );
      }),
      { numRuns: 500 },
    );
  });
});
