import { createHash } from "node:crypto";
import { ScannerPackageManifestSchema } from "@hcs/protocol";
import { z } from "zod";
import { CA_FILE, scannerManifest, servedPackage } from "../downloads/scanner-manifest.js";
import { ServiceError } from "../errors.js";
import { definePublicRoute, type PublicRoute } from "./route.js";

const b64 = (hex: string) => Buffer.from(hex, "hex").toString("base64");

/**
 * The scanner package as `npm pack` made it when this server was built, so that `npm install --global <url>` installs
 * the scanner from the server it will report to (docs/operations.md#the-scanner-package).
 */
export const downloadRoutes: PublicRoute[] = [
  definePublicRoute({
    path: "/downloads/hcs-scanner.json",
    id: "getScannerPackage",
    summary: "The scanner package this server serves: version, URL, SHA-256, npm integrity and install command",
    response: { description: "The package manifest", schema: ScannerPackageManifestSchema },
    errors: ["not_found"],
    async handler(ctx, deps) {
      ctx.set("Cache-Control", "no-cache");
      ctx.body = scannerManifest(deps);
    },
  }),
  definePublicRoute({
    path: `/downloads/${CA_FILE}`,
    id: "getServerCa",
    summary: "The CA certificate this server's TLS chains to (its SHA-256 is the deploy token's ca_sha256)",
    response: { description: "PEM certificate", schema: z.string(), contentType: "application/x-pem-file" },
    errors: ["not_found"],
    async handler(ctx, deps) {
      if (!deps.downloads) throw new ServiceError("not_found", "no CA certificate is served by this process");
      ctx.set("Cache-Control", "no-cache");
      ctx.type = "application/x-pem-file";
      ctx.body = deps.downloads.caPem;
    },
  }),
  definePublicRoute({
    // Its name carries the version, so it is not a fixed OpenAPI path: docs/api.md lists it.
    path: "/downloads/:file",
    internal: true,
    id: "getScannerTarball",
    summary: "The scanner package tarball (hcs-scanner-<version>.tgz)",
    response: { description: "The tarball", contentType: "application/octet-stream" },
    async handler(ctx, deps) {
      const pkg = servedPackage(deps);
      const file = (ctx.params as { file?: string }).file;
      if (file !== pkg.file) {
        throw new ServiceError("not_found", `this server serves ${pkg.file} (see /downloads/hcs-scanner.json)`);
      }
      const sha512 = createHash("sha512").update(pkg.bytes).digest("hex");
      ctx.set("ETag", `"${pkg.sha256}"`);
      ctx.set("Cache-Control", "no-cache");
      // RFC 9530: the digests of the bytes served, for clients that check them on the way in.
      ctx.set("Repr-Digest", `sha-256=:${b64(pkg.sha256)}:, sha-512=:${b64(sha512)}:`);
      ctx.set("Content-Disposition", `attachment; filename="${pkg.file}"`);
      if (ctx.get("If-None-Match") === `"${pkg.sha256}"`) {
        ctx.status = 304;
        return;
      }
      ctx.type = "application/octet-stream";
      ctx.body = pkg.bytes;
    },
  }),
];
