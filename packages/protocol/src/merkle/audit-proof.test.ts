import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHex, utf8Bytes } from "../encoding.js";
import { AUDIT_PROOF_FORMAT, type AuditProofBundle, auditRecordLeafHash, verifyAuditProof } from "./audit-proof.js";
import { formatCheckpoint } from "./checkpoint.js";
import { type Ed25519Verify, formatNote, formatVerifierKey, noteKeyHash } from "./signed-note.js";
import { inclusionProof, merkleRoot, RFC9162 } from "./tree.js";

const ORIGIN = "hcs.test/audit";
const nodeVerify: Ed25519Verify = (publicKey, message, signature) =>
  verify(
    null,
    message,
    createPublicKey({
      key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), publicKey]),
      format: "der",
      type: "spki",
    }),
    signature,
  );

function logOf(n: number) {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" }).subarray(12));
  const records = Array.from({ length: n }, (_, i) => ({
    actor: { account_id: `acc_${i % 3}`, key_id: null },
    code: null,
    operation: "hipaa.grade",
    outcome: "success",
    request_id: `req-${i}`,
    resource: "practice:1234567893",
    salt: i.toString(16).padStart(32, "0"),
    status: 200,
    time: "2026-11-23T10:00:00.000Z",
    transport: i % 2 ? "jsonrpc" : "rest",
    v: 1 as const,
  }));
  const leaves = records.map((r) => auditRecordLeafHash(r));
  const root = merkleRoot(RFC9162, leaves);
  const body = formatCheckpoint({ origin: ORIGIN, size: n, rootHash: root, extensions: [] });
  const note = formatNote(body, [
    {
      name: ORIGIN,
      keyHash: noteKeyHash(ORIGIN, raw),
      signature: new Uint8Array(sign(null, utf8Bytes(body), privateKey)),
    },
  ]);
  const verifierKey = formatVerifierKey(ORIGIN, raw);
  const bundle = (i: number): AuditProofBundle => ({
    format: AUDIT_PROOF_FORMAT,
    event: { id: i + 1, record: records[i]! },
    leaf_index: i,
    leaf_hash: toHex(leaves[i]!),
    inclusion_proof: inclusionProof(RFC9162, leaves, i).map(toHex),
    checkpoint: { size: n, root_hash: toHex(root), note, created_at: "2026-11-23T10:00:01.000Z", anchor: null },
    verifier_key: verifierKey,
  });
  return { bundle, verifierKey };
}

const clone = (b: AuditProofBundle): AuditProofBundle => JSON.parse(JSON.stringify(b));

describe("verifyAuditProof", () => {
  it("accepts every event's bundle of logs of 1 to 40 events, with the bundle's key or a trusted one", () => {
    for (let n = 1; n <= 40; n++) {
      const { bundle, verifierKey } = logOf(n);
      for (let i = 0; i < n; i++) {
        expect(verifyAuditProof(bundle(i), { verify: nodeVerify })).toMatchObject({ ok: true, keyTrusted: false });
        expect(verifyAuditProof(bundle(i), { verify: nodeVerify, trustedKey: verifierKey })).toMatchObject({
          ok: true,
          leafIndex: i,
          treeSize: n,
          origin: ORIGIN,
          keyTrusted: true,
        });
      }
    }
  });

  it("names the check that fails for each kind of tampering", () => {
    const { bundle, verifierKey } = logOf(13);
    const failureOf = (b: unknown, trustedKey = verifierKey) => {
      const v = verifyAuditProof(b, { verify: nodeVerify, trustedKey });
      return v.ok ? "ok" : v.failure;
    };
    const altered = clone(bundle(5));
    (altered.event.record as Record<string, unknown>).outcome = "denied";
    expect(failureOf(altered)).toBe("leaf_hash");

    const otherLeaf = clone(bundle(5));
    otherLeaf.leaf_index = 6;
    expect(failureOf(otherLeaf)).toBe("inclusion");

    const badPath = clone(bundle(5));
    badPath.inclusion_proof[1] = "00".repeat(32);
    expect(failureOf(badPath)).toBe("inclusion");

    const shortPath = clone(bundle(5));
    shortPath.inclusion_proof.pop();
    expect(failureOf(shortPath)).toBe("inclusion");

    const claimsBigger = clone(bundle(5));
    claimsBigger.checkpoint.size = 14;
    expect(failureOf(claimsBigger)).toBe("checkpoint_mismatch");

    const forged = clone(bundle(5));
    forged.checkpoint.note = forged.checkpoint.note.replace("\n13\n", "\n12\n");
    expect(failureOf(forged)).toBe("checkpoint_signature");

    const stranger = logOf(13);
    expect(failureOf(bundle(5), stranger.verifierKey)).toBe("verifier_key");
    // A bundle re-signed by someone else, carrying their key, fails against the key the auditor trusts.
    expect(failureOf({ ...stranger.bundle(5) })).toBe("verifier_key");

    expect(failureOf({ ...bundle(5), format: "something/v2" })).toBe("malformed");
    expect(failureOf({ ...bundle(5), leaf_hash: "XYZ" })).toBe("malformed");
    expect(failureOf(null)).toBe("malformed");
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(verifyAuditProof(value, { verify: nodeVerify }).ok).toBe(false);
      }),
    );
  });

  it("hashes a record as SHA-256(0x00 || RFC 8785 JSON), whatever order its keys come in", () => {
    const a = auditRecordLeafHash({ v: 1, b: "x", a: { d: 1, c: null } });
    const b = auditRecordLeafHash({ a: { c: null, d: 1 }, b: "x", v: 1 });
    expect(toHex(a)).toBe(toHex(b));
    expect(toHex(a)).toBe(
      // sha256 of "\0" + '{"a":{"c":null,"d":1},"b":"x","v":1}', computed with Node's crypto
      createHash("sha256").update('\0{"a":{"c":null,"d":1},"b":"x","v":1}').digest("hex"),
    );
  });
});
