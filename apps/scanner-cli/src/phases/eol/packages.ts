/**
 * Which endoflife.date product a Linux package is, by its exact package name in its ecosystem (dpkg or rpm), and
 * whose build it is. Package names are identities: `openssl` and `libssl3` are OpenSSL, `libengine-gost-openssl`
 * (a GOST engine at its own version 3.0.1), `python3-openssl` (pyOpenSSL) and `libgnutls-openssl27` (GnuTLS) are
 * not, though their names contain the word. So packages are never matched by a substring of their name, only by the
 * registry below; a package not in it is not a product the dataset covers. Pure.
 */
import type { ProductRef } from "./normalize.js";

export type PackageEcosystem = "dpkg" | "rpm";

/**
 * Whose build an installed package is:
 *   distribution  built and patched by the Linux distribution (Debian's `-1~deb12u2`, Ubuntu's `-3ubuntu0.4`,
 *                 RHEL's `.el9`): fixes are backported under the upstream number, so it is supported for as long
 *                 as that release of the distribution is, whatever upstream says about the number
 *   upstream      the vendor's own repository (PGDG, nginx.org, MySQL, MongoDB, NodeSource, Redis…): the vendor's
 *                 lifecycle applies
 */
export type PackageBuild = "distribution" | "upstream";

export interface PackageRef extends ProductRef {
  readonly build: PackageBuild;
}

interface PackageRule {
  readonly product: string;
  readonly names: RegExp;
}

/**
 * Server software and runtimes, by the package names their own and the distributions' packaging use. Meta and
 * helper packages (`postgresql` 15+248, `postgresql-common`, `mysql-common`, `redis-tools`) carry packaging
 * numbers, not the product's, and are left out on purpose; so are client libraries with their own numbering.
 */
const DPKG_RULES: readonly PackageRule[] = [
  { product: "openssl", names: /^(?:openssl|libssl\d+(?:\.\d+)*(?:t64)?)$/ },
  { product: "openssh", names: /^openssh-(?:server|client|sftp-server)$/ },
  { product: "mariadb", names: /^mariadb-server(?:-core)?(?:-\d+\.\d+)?$/ },
  { product: "mysql", names: /^mysql-(?:community-)?server(?:-core)?(?:-\d+\.\d+)?$/ },
  { product: "postgresql", names: /^postgresql-\d+$/ },
  { product: "mongodb", names: /^mongodb-(?:org-)?server$/ },
  { product: "redis", names: /^redis-server$/ },
  { product: "nginx", names: /^nginx(?:-core|-full|-light|-extras)?$/ },
  { product: "apache-http-server", names: /^apache2(?:-bin)?$/ },
  { product: "tomcat", names: /^tomcat\d+$/ },
  { product: "nodejs", names: /^nodejs$/ },
  { product: "python", names: /^python\d\.\d+(?:-minimal)?$/ },
  { product: "php", names: /^php\d\.\d+-(?:cli|fpm|common)$|^libapache2-mod-php\d\.\d+$/ },
  { product: "dotnet", names: /^(?:dotnet|aspnetcore)-runtime-\d+\.\d+$/ },
  { product: "eclipse-temurin", names: /^temurin-\d+-(?:jdk|jre)$/ },
];

const RPM_RULES: readonly PackageRule[] = [
  { product: "openssl", names: /^openssl(?:-libs)?$|^openssl\d+(?:-libs)?$/ },
  { product: "openssh", names: /^openssh(?:-server|-clients)?$/ },
  { product: "mariadb", names: /^mariadb-server$|^MariaDB-server$/ },
  { product: "mysql", names: /^mysql-(?:community-)?server$/ },
  { product: "postgresql", names: /^postgresql(?:\d+)?-server$/ },
  { product: "mongodb", names: /^mongodb-org-server$/ },
  { product: "redis", names: /^redis$/ },
  { product: "nginx", names: /^nginx$/ },
  { product: "apache-http-server", names: /^httpd$/ },
  { product: "tomcat", names: /^tomcat$/ },
  { product: "nodejs", names: /^nodejs$/ },
  { product: "python", names: /^python3(?:\.\d+)?$/ },
  { product: "php", names: /^php(?:-cli|-fpm|-common)?$/ },
  { product: "dotnet", names: /^(?:dotnet|aspnetcore)-runtime-\d+\.\d+$/ },
  { product: "eclipse-temurin", names: /^temurin-\d+-(?:jdk|jre)$/ },
];

const RULES: Readonly<Record<PackageEcosystem, readonly PackageRule[]>> = { dpkg: DPKG_RULES, rpm: RPM_RULES };

/**
 * Revisions the distributions themselves write: Debian security and point updates (`+deb12u1`, `~deb12u2`),
 * backports (`~bpo12+1`), binary rebuilds (`+b1`), Ubuntu (`ubuntu`), RHEL and its rebuilds (`.el9`, `.el9_4`),
 * Fedora (`.fc40`), Amazon Linux (`.amzn2023`), SUSE (`.150500.`-style release numbers are not matched: no SUSE
 * capture was found, so SUSE builds read as upstream's and keep the stricter verdict).
 */
const DISTRIBUTION_REVISION = /(?:[+~]deb\d+u\d+|~bpo\d+|\+b\d+$|ubuntu|\.el\d+|\.fc\d+|\.amzn\d+)/;

/**
 * Vendor and third-party repositories whose revisions may carry a distribution's words (Ondřej Surý's PHP builds:
 * `+ubuntu22.04.1+deb.sury.org+1`) or look like a plain Debian revision: the vendor's lifecycle applies. Other
 * vendors' revisions (nginx.org `-1~bookworm`, Redis `-1rl1~bookworm1`, MySQL `-1debian12`) carry no distribution
 * marker and read as upstream's without being listed.
 */
const UPSTREAM_REVISION = /(?:pgdg|sury\.org|nodesource)/;

/** A Debian revision that is a bare number (`-1`, `-2.1`): the package as the release shipped it. */
const DEBIAN_NATIVE_REVISION = /^\d+(?:\.\d+)?$/;

/** `[epoch:]upstream[-revision]` as dpkg and rpm print it; the revision is what follows the last hyphen. */
function splitVersion(version: string): { upstream: string; revision: string } {
  const v = version.trim().replace(/^\d{1,4}:(?=\d)/, "");
  const dash = v.lastIndexOf("-");
  return dash > 0 ? { upstream: v.slice(0, dash), revision: v.slice(dash + 1) } : { upstream: v, revision: "" };
}

/** Whose build a package version is (see {@link PackageBuild}). */
export function packageBuild(ecosystem: PackageEcosystem, version: string): PackageBuild {
  const { revision } = splitVersion(version.toLowerCase());
  if (revision === "" || UPSTREAM_REVISION.test(revision)) return "upstream";
  if (DISTRIBUTION_REVISION.test(revision)) return "distribution";
  return ecosystem === "dpkg" && DEBIAN_NATIVE_REVISION.test(revision) ? "distribution" : "upstream";
}

/** The upstream version a matcher understands: `1:9.2p1-2+deb12u10` → `9.2p1`, `3.0.19-1~deb12u2` → `3.0.19`. */
function upstreamVersion(version: string): string | null {
  const m = /^(\d{1,9}(?:\.\d{1,9}){0,5})([a-z]{1,2}\d{0,6})?/.exec(splitVersion(version.toLowerCase()).upstream);
  return m?.[1] ? m[1] + (m[2] ?? "") : null;
}

/**
 * The product, upstream version and build of an installed package, or null when its exact name is not a product
 * the dataset covers. Never throws.
 */
export function identifyPackage(ecosystem: PackageEcosystem, name: string, version: string): PackageRef | null {
  if (typeof name !== "string" || typeof version !== "string" || name.length > 128 || version.length > 128) return null;
  const rule = RULES[ecosystem].find((r) => r.names.test(name.trim()));
  if (!rule) return null;
  const upstream = upstreamVersion(version);
  return upstream ? { product: rule.product, version: upstream, build: packageBuild(ecosystem, version) } : null;
}
