import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The scanner package as this server serves it: the tarball `npm pack` made, and its digests. */
export interface ScannerPackage {
  readonly version: string;
  /** `hcs-scanner-<version>.tgz`: the name it is served under, /downloads/<file>. */
  readonly file: string;
  readonly bytes: Buffer;
  /** SHA-256 of the tarball, hex (what `sha256sum` prints). */
  readonly sha256: string;
  /** Subresource-integrity string, as npm records it in package-lock.json and `npm pack --json`. */
  readonly integrity: string;
}

const FILE = /^hcs-scanner-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\.tgz$/;

/** The package's description from its bytes (pure). */
export function describeScannerPackage(version: string, bytes: Buffer): ScannerPackage {
  return {
    version,
    file: `hcs-scanner-${version}.tgz`,
    bytes,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
  };
}

/** Why a directory holds no package to serve, for the start-up log line. */
export type ScannerPackageLookup =
  | { readonly ok: true; readonly pkg: ScannerPackage }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads the scanner package from `dir` once, at start-up: exactly one `hcs-scanner-<version>.tgz` (two would leave
 * the install command ambiguous; the build removes the old one). The bytes are kept in memory (about 0.5 MB) so
 * that what is served and what its digests describe cannot differ.
 */
export function loadScannerPackage(dir: string): ScannerPackageLookup {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    return { ok: false, reason: `${dir} cannot be read (${code}); run npm run build, or set HCS_SCANNER_DIR` };
  }
  const found = names.flatMap((name) => {
    const m = FILE.exec(name);
    return m ? [{ name, version: m[1]! }] : [];
  });
  if (found.length === 0) return { ok: false, reason: `no hcs-scanner-<version>.tgz in ${dir}` };
  if (found.length > 1)
    return { ok: false, reason: `${dir} holds ${found.map((f) => f.name).join(", ")}; keep exactly one` };
  const { name, version } = found[0]!;
  return { ok: true, pkg: describeScannerPackage(version, readFileSync(join(dir, name))) };
}

/** How a clinic installs the served package: npm fetching it from this server, trusting the server's CA. */
export function npmInstallCommand(publicUrl: string, pkg: ScannerPackage): string {
  return `npm install --global ${packageUrl(publicUrl, pkg)} --cafile ./hcs-ca.pem`;
}

export function packageUrl(publicUrl: string, pkg: ScannerPackage): string {
  return `${publicUrl.replace(/\/+$/, "")}/downloads/${pkg.file}`;
}
