import { type ScannerPackageManifest, ScannerPackageManifestSchema } from "@hcs/protocol";
import type { AppDeps } from "../app-deps.js";
import { ServiceError } from "../errors.js";
import { npmInstallCommand, packageUrl } from "./scanner-package.js";

/** The file name the server's CA certificate is downloaded as. */
export const CA_FILE = "hcs-ca.pem";

/** The scanner package this server serves, or not_found when it serves none. */
export function servedPackage(deps: AppDeps) {
  const pkg = deps.downloads?.scanner;
  if (!pkg) throw new ServiceError("not_found", "this server has no scanner package to serve; ask its operator");
  return pkg;
}

/** The manifest of the served package (what the deploy response's install commands rest on). */
export function scannerManifest(deps: AppDeps): ScannerPackageManifest {
  const pkg = servedPackage(deps);
  const base = deps.config.publicUrl.replace(/\/+$/, "");
  return ScannerPackageManifestSchema.parse({
    name: "@hcs/scanner-cli",
    version: pkg.version,
    file: pkg.file,
    url: packageUrl(deps.config.publicUrl, pkg),
    size: pkg.bytes.length,
    sha256: pkg.sha256,
    integrity: pkg.integrity,
    ca_url: `${base}/downloads/${CA_FILE}`,
    ca_sha256: deps.tls.caSha256,
    npm: npmInstallCommand(deps.config.publicUrl, pkg),
  });
}
