// C2SP signed-note (https://c2sp.org/signed-note): a UTF-8 text, a blank line, and signature lines
// "— <key name> <base64(key hash || signature)>". Ed25519 keys (algorithm byte 0x01) only: the key hash is the first
// four bytes of SHA-256(name || "\n" || 0x01 || public key). Formatting and parsing are pure; the signature check
// itself is passed in (Node's or Web Crypto's Ed25519), so this package stays free of runtime crypto.

import { base64Decode, base64Encode, utf8Bytes } from "../encoding.js";
import { sha256 } from "./sha256.js";

const ED25519 = 0x01;
const SIGNATURE_PREFIX = "\u2014 ";

/** Checks an Ed25519 signature: true when `signature` signs `message` under the 32-byte `publicKey`. */
export type Ed25519Verify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

export interface NoteVerifierKey {
  readonly name: string;
  /** The key hash as an unsigned 32-bit number. */
  readonly keyHash: number;
  readonly publicKey: Uint8Array;
}

export interface NoteSignature {
  readonly name: string;
  readonly keyHash: number;
  /** The raw signature (64 bytes for Ed25519). */
  readonly signature: Uint8Array;
}

/** A key name: non-empty, no whitespace, no '+' (C2SP signed-note). */
export const isNoteKeyName = (name: string): boolean => name.length > 0 && !/[\s+]/u.test(name);

/** The key hash of an Ed25519 key under its name. */
export function noteKeyHash(name: string, publicKey: Uint8Array): number {
  const nameBytes = utf8Bytes(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = ED25519;
  input.set(publicKey, nameBytes.length + 2);
  const digest = sha256(input);
  return ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
}

/** The verifier key text `<name>+<hash hex>+<base64(0x01 || public key)>` that others configure to trust a log. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  if (!isNoteKeyName(name)) throw new Error(`not a signed-note key name: ${JSON.stringify(name)}`);
  if (publicKey.length !== 32) throw new Error("an Ed25519 public key is 32 bytes");
  const typed = new Uint8Array(33);
  typed[0] = ED25519;
  typed.set(publicKey, 1);
  return `${name}+${noteKeyHash(name, publicKey).toString(16).padStart(8, "0")}+${base64Encode(typed)}`;
}

/** Parses a verifier key; null unless it is a well-formed Ed25519 key whose hash matches its name and key. */
export function parseVerifierKey(text: string): NoteVerifierKey | null {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+(\S+)$/.exec(text);
  if (!m) return null;
  const [, name, hashHex, key] = m as unknown as [string, string, string, string];
  const typed = base64Decode(key);
  if (typed?.length !== 33 || typed[0] !== ED25519) return null;
  const publicKey = typed.slice(1);
  const keyHash = Number.parseInt(hashHex, 16);
  if (noteKeyHash(name, publicKey) !== keyHash) return null;
  return { name, keyHash, publicKey };
}

/** The note with its signature lines, as published. `text` must end with a newline. */
export function formatNote(text: string, signatures: readonly NoteSignature[]): string {
  if (!text.endsWith("\n")) throw new Error("a note's text ends with a newline");
  const lines = signatures.map((s) => {
    const blob = new Uint8Array(4 + s.signature.length);
    new DataView(blob.buffer).setUint32(0, s.keyHash);
    blob.set(s.signature, 4);
    return `${SIGNATURE_PREFIX}${s.name} ${base64Encode(blob)}\n`;
  });
  return `${text}\n${lines.join("")}`;
}

/** A note split into its text and signature lines; null when it is not a well-formed signed note. */
export function parseNote(note: string): { text: string; signatures: NoteSignature[] } | null {
  if (!note.endsWith("\n") || note.length > 1_000_000) return null;
  const split = note.lastIndexOf("\n\n");
  if (split < 0) return null;
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split("\n");
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    if (!line.startsWith(SIGNATURE_PREFIX)) return null;
    const parts = line.slice(SIGNATURE_PREFIX.length).split(" ");
    if (parts.length !== 2 || !isNoteKeyName(parts[0]!)) return null;
    const blob = base64Decode(parts[1]!);
    if (!blob || blob.length < 5) return null;
    const keyHash = new DataView(blob.buffer, blob.byteOffset).getUint32(0);
    signatures.push({ name: parts[0]!, keyHash, signature: blob.slice(4) });
  }
  if (signatures.length === 0) return null;
  return { text, signatures };
}

/**
 * The text of a note signed by `key`, or why not: `malformed` (not a signed note), `unsigned` (no signature by
 * that key's name and hash), `bad_signature` (one is, and does not verify).
 */
export function openNote(
  note: string,
  key: NoteVerifierKey,
  verify: Ed25519Verify,
): { ok: true; text: string } | { ok: false; reason: "malformed" | "unsigned" | "bad_signature" } {
  const parsed = parseNote(note);
  if (!parsed) return { ok: false, reason: "malformed" };
  const mine = parsed.signatures.filter((s) => s.name === key.name && s.keyHash === key.keyHash);
  if (mine.length === 0) return { ok: false, reason: "unsigned" };
  const message = utf8Bytes(parsed.text);
  const good = mine.some((s) => s.signature.length === 64 && verify(key.publicKey, message, s.signature));
  return good ? { ok: true, text: parsed.text } : { ok: false, reason: "bad_signature" };
}
