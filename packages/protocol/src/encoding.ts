// Runtime-neutral byte helpers (no Buffer, no TextEncoder: this package has no runtime globals beyond ES2023).

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const B64URL_INDEX = new Map([...B64URL].map((c, i) => [c, i]));

/** base64url without padding. */
export function base64UrlEncode(bytes: ArrayLike<number>): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64URL[(n >> 18) & 63]! + B64URL[(n >> 12) & 63]! + B64URL[(n >> 6) & 63]! + B64URL[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += B64URL[(n >> 18) & 63]! + B64URL[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64URL[(n >> 18) & 63]! + B64URL[(n >> 12) & 63]! + B64URL[(n >> 6) & 63]!;
  }
  return out;
}

/** Decodes unpadded base64url; null when the text is not canonical base64url. */
export function base64UrlDecode(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const c of text) {
    const v = B64URL_INDEX.get(c);
    if (v === undefined) return null;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  // Leftover bits must be zero, otherwise two encodings would decode to the same bytes.
  if (bits > 0 && (buffer & ((1 << bits) - 1)) !== 0) return null;
  return Uint8Array.from(out);
}

/** ASCII text to bytes; null when a character is outside 0x20–0x7e. */
export function asciiBytes(text: string): Uint8Array | null {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return null;
    out[i] = c;
  }
  return out;
}

/** Bytes to ASCII text; null when a byte is outside 0x20–0x7e. */
export function bytesAscii(bytes: Uint8Array): string | null {
  let out = "";
  for (const b of bytes) {
    if (b < 0x20 || b > 0x7e) return null;
    out += String.fromCharCode(b);
  }
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of an ASCII string, as 8 lower-case hex digits. Detects typos and truncation, not forgery. */
export function crc32Hex(text: string): string {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, "0");
}

const FROM_URL: Record<string, string> = { "-": "+", _: "/" };
const TO_URL: Record<string, string> = { "+": "-", "/": "_" };

/** Standard base64 with padding (RFC 4648 §4), as signed notes and checkpoints use. */
export function base64Encode(bytes: ArrayLike<number>): string {
  const text = base64UrlEncode(bytes).replace(/[-_]/g, (c) => FROM_URL[c]!);
  return text + "=".repeat((4 - (text.length % 4)) % 4);
}

/** Decodes canonical padded standard base64; null for anything else (wrong padding, URL alphabet, stray bits). */
export function base64Decode(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const body = text.replace(/={1,2}$/, "");
  if (/[^A-Za-z0-9+/]/.test(body)) return null;
  return base64UrlDecode(body.replace(/[+/]/g, (c) => TO_URL[c]!));
}

/** Text as UTF-8 bytes (a lone surrogate becomes U+FFFD, as TextEncoder does). */
export function utf8Bytes(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return Uint8Array.from(out);
}

/** Lower-case hex of bytes. */
export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** Bytes of lower- or upper-case hex; null for odd length or a non-hex character. */
export function fromHex(text: string): Uint8Array | null {
  if (text.length % 2 !== 0 || /[^0-9a-fA-F]/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}
