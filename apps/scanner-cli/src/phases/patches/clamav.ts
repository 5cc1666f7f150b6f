/**
 * ClamAV's signature databases: the 512-byte header every `.cvd` and `.cld` file starts with,
 * `ClamAV-VDB:<build time>:<version>:<signatures>:<functionality level>:<md5>:<digital signature>:<builder>:<epoch>`.
 * freshclam rewrites the header of `daily.cld` when it applies a daily update, so the header says how old the
 * signatures are whatever the file's copy time. Pure; fixture in patches/fixtures (provenance in phases/FIXTURES.md).
 */

export interface CvdHeader {
  /** Database version (daily.cvd counts up by one or more a day). */
  readonly version: number;
  readonly signatures: number;
  /** When ClamAV built this database version (the header's epoch seconds). */
  readonly builtAt: Date;
}

/** The header of a ClamAV database file, or null when the bytes are not one. */
export function parseCvdHeader(head: string): CvdHeader | null {
  if (!head.startsWith("ClamAV-VDB:")) return null;
  const line = head.slice(0, 512).replace(/[\s\0]+$/, "");
  // The build time itself holds colons in no version seen, but the signature field is base64: split from both ends.
  const parts = line.split(":");
  if (parts.length < 9) return null;
  const version = Number(parts[2]);
  const signatures = Number(parts[3]);
  const epoch = Number(parts[parts.length - 1]);
  if (!Number.isInteger(version) || !Number.isInteger(signatures) || !Number.isInteger(epoch) || epoch <= 0)
    return null;
  return { version, signatures, builtAt: new Date(epoch * 1000) };
}
