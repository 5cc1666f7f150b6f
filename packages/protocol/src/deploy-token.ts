import { asciiBytes, base64UrlDecode, base64UrlEncode, bytesAscii, crc32Hex, fromHex, toHex } from "./encoding.js";

/**
 * A deploy token carries what `hcs-scanner register` needs besides itself: the server URL and the SHA-256
 * pin of the server's CA. Layout: `hcsdt1.<b64url(server_url)>.<b64url(ca_sha256 bytes)>.<secret>.<crc32>`.
 * The server stores only a hash of the whole token, so editing the URL or pin makes it invalid there; the
 * CRC lets the scanner reject a mistyped or truncated token before it contacts anything.
 */
export const DEPLOY_TOKEN_PREFIX = "hcsdt1";

export interface DeployTokenParts {
  readonly serverUrl: string;
  /** Hex SHA-256 of the CA certificate (DER), 64 lower-case hex digits. */
  readonly caSha256: string;
  /** Random secret, base64url (at least 32 characters). */
  readonly secret: string;
}

export type DeployTokenProblem = "malformed" | "checksum_mismatch" | "bad_server_url" | "bad_ca_pin";

export type DeployTokenDecodeResult =
  | { ok: true; token: DeployTokenParts }
  | { ok: false; problem: DeployTokenProblem };

const HEX64 = /^[0-9a-f]{64}$/;
const SECRET = /^[A-Za-z0-9_-]{32,128}$/;

function validServerUrl(url: string): boolean {
  return /^https:\/\/[A-Za-z0-9.\-[\]:]+(:[0-9]{1,5})?(\/[\x21-\x7e]*)?$/.test(url) && url.length <= 512;
}

/** Builds a deploy token string. Throws on inputs the decoder would refuse. */
export function encodeDeployToken(parts: DeployTokenParts): string {
  const urlBytes = asciiBytes(parts.serverUrl);
  if (!urlBytes || !validServerUrl(parts.serverUrl))
    throw new TypeError("deploy token: server URL must be https and ASCII");
  if (!HEX64.test(parts.caSha256)) throw new TypeError("deploy token: CA pin must be 64 lower-case hex digits");
  if (!SECRET.test(parts.secret)) throw new TypeError("deploy token: secret must be 32–128 base64url characters");
  const body = [
    DEPLOY_TOKEN_PREFIX,
    base64UrlEncode(urlBytes),
    base64UrlEncode(fromHex(parts.caSha256)!),
    parts.secret,
  ].join(".");
  return `${body}.${crc32Hex(body)}`;
}

/** Reads a deploy token without contacting anything; says what is wrong with a bad one. */
export function decodeDeployToken(token: string): DeployTokenDecodeResult {
  const trimmed = token.trim();
  const pieces = trimmed.split(".");
  if (pieces.length !== 5 || pieces[0] !== DEPLOY_TOKEN_PREFIX || trimmed.length > 1024) {
    return { ok: false, problem: "malformed" };
  }
  const [, urlPart, pinPart, secret, crc] = pieces as [string, string, string, string, string];
  if (crc32Hex(pieces.slice(0, 4).join(".")) !== crc) return { ok: false, problem: "checksum_mismatch" };
  if (!SECRET.test(secret)) return { ok: false, problem: "malformed" };
  const urlBytes = base64UrlDecode(urlPart);
  const serverUrl = urlBytes ? bytesAscii(urlBytes) : null;
  if (!serverUrl || !validServerUrl(serverUrl)) return { ok: false, problem: "bad_server_url" };
  const pin = base64UrlDecode(pinPart);
  if (pin?.length !== 32) return { ok: false, problem: "bad_ca_pin" };
  return { ok: true, token: { serverUrl, caSha256: toHex(pin), secret } };
}
