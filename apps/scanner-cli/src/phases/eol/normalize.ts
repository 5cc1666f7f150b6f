/**
 * Maps product names and versions as an inventory reports them (systeminformation's osInfo, banners,
 * `--version` output, Windows "Programs and Features" names) to an endoflife.date product id and a
 * version string the matcher understands. Pure: no IO, no dataset access, never throws.
 *
 * Normalized version forms (what `matchEndOfLife` expects):
 * - most products: the first dotted version, lower case, e.g. `20.04.6`, `1.1.1w`, `8.9p1`;
 * - `windows`: `<major>.<minor>.<build>+<edition>` (`10.0.19045+w`), or `<major>.<minor>+<edition>` for releases
 *   before Windows 10, where the kernel version alone identifies the release; edition is `w` (Home/Pro),
 *   `e` (Enterprise/Education/IoT Enterprise), `e-lts` (Enterprise LTSC/LTSB) or `iot-lts` (IoT Enterprise LTSC),
 *   the edition split endoflife.date uses;
 * - `windows-server`: the release named in the product name (`2012-r2`, `2019`) or else the build (`10.0.25398`);
 * - `mssqlserver`: the build (`15.0.4322`) or, when only the name is known, the marketing year (`2016`, `2008 r2`).
 */

export interface ProductRef {
  readonly product: string;
  readonly version: string;
}

/** Inventories never report longer names; the cap bounds the regex work done on hostile input. */
const MAX_INPUT_LENGTH = 256;

/**
 * First dotted number not preceded by a digit or a dot (so `x86_64` or `3ubuntu0.4` cannot start one), with an
 * optional letter suffix kept because it matters to some products (OpenSSL `1.1.1w`, OpenSSH `8.9p1`).
 * Bounded quantifiers keep matching linear.
 */
const VERSION_TOKEN = /(?<![\d.])v?(\d{1,9}(?:\.\d{1,9}){0,5})([a-z]{1,2}\d{0,6})?/;

/** Drivers, client tools and admin consoles carry a product's name but have their own, unrelated versions. */
const NOT_THE_PRODUCT =
  /\b(odbc|jdbc|oledb|driver|connector|workbench|compass|mongosh|management studio|native client|updater|auto update)\b/;

function clean(value: unknown): string {
  if (typeof value !== "string") return "";
  return value.slice(0, MAX_INPUT_LENGTH).toLowerCase().replace(/\s+/g, " ").trim();
}

function versionToken(text: string): string | null {
  const m = VERSION_TOKEN.exec(text);
  if (!m?.[1]) return null;
  return m[1] + (m[2] ?? "");
}

/** The version argument wins; the name is the fallback for banners like `Apache/2.4.57` or `OpenSSL 1.1.1w`. */
function firstVersion(version: string, name: string): string | null {
  return versionToken(version) ?? versionToken(name);
}

/** `mysql  Ver 14.14 Distrib 5.7.44` reports the client protocol version first; the server version follows Distrib. */
function distribVersion(text: string): string | null {
  const m = /distrib (\d{1,9}(?:\.\d{1,9}){0,4})/.exec(text);
  return m?.[1] ?? null;
}

function mariadbVersion(version: string, name: string): string | null {
  const text = `${version} ${name}`;
  // The number glued to "-MariaDB" is the server version, also behind the `5.5.5-` prefix of the wire protocol.
  const glued = /(\d{1,9}\.\d{1,9}(?:\.\d{1,9})?)-mariadb/.exec(text);
  return glued?.[1] ?? distribVersion(text) ?? firstVersion(version, name);
}

/** Java reports 8 as `1.8.0_381` or `8u381`; endoflife.date names the cycle `8` (but keeps `1.4` for old releases). */
function javaVersion(version: string, name: string): string | null {
  const update = /(?:^|\s)java (\d{1,2}) update (\d{1,4})/.exec(name);
  if (update?.[1]) return `${update[1]}u${update[2]}`;
  const v = firstVersion(version, name);
  if (!v) return null;
  const legacy = /^1\.(\d{1,2})(\..*)?$/.exec(v);
  if (legacy?.[1] && Number(legacy[1]) >= 5) return legacy[1] + (legacy[2] ?? "");
  return v;
}

function sqlServerVersion(version: string, name: string): string | null {
  const text = `${version} ${name}`;
  const build = /(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{3,5})(?![\d])/.exec(text);
  if (build) return `${build[1]}.${build[2]}.${build[3]}`;
  const year = /sql server (\d{4})( r2)?\b/.exec(name);
  if (year?.[1]) return year[1] + (year[2] ?? "");
  return null;
}

function windowsEdition(name: string): string {
  if (/\blts[cb]\b/.test(name)) return /\biot\b/.test(name) ? "iot-lts" : "e-lts";
  // "Pro Education" and "Pro for Workstations" are on the Home/Pro (W) servicing track, so check Pro first.
  if (/\b(pro|home|professional)\b/.test(name)) return "w";
  if (/\b(enterprise|education)\b/.test(name)) return "e";
  return "w";
}

/** Kernel versions of the releases before Windows 10, for names that come without a build. */
const LEGACY_WINDOWS: ReadonlyArray<readonly [RegExp, string]> = [
  [/windows xp\b/, "5.1"],
  [/windows vista\b/, "6.0"],
  [/windows 7\b/, "6.1"],
  [/windows 8\.1\b/, "6.3"],
  [/windows 8\b/, "6.2"],
];

function windowsClientVersion(version: string, name: string): string | null {
  const edition = windowsEdition(name);
  const build = /^(\d{1,2})\.(\d{1,2})(?:\.(\d{1,6}))?/.exec(version);
  if (build?.[1] && build[2]) {
    const major = Number(build[1]);
    if (major >= 10) return build[3] ? `${build[1]}.${build[2]}.${build[3]}+${edition}` : null;
    return `${build[1]}.${build[2]}+${edition}`;
  }
  for (const [pattern, kernel] of LEGACY_WINDOWS) {
    if (pattern.test(name)) return `${kernel}+${edition}`;
  }
  return null;
}

function windowsServerVersion(version: string, name: string): string | null {
  const year = /windows server (\d{4})( r2)?\b/.exec(name);
  if (year?.[1]) return year[1] + (year[2] ? "-r2" : "");
  const build = /^(\d{1,2})\.(\d{1,2})\.(\d{1,6})/.exec(version);
  return build ? `${build[1]}.${build[2]}.${build[3]}` : null;
}

/** SLES reports service packs as `15-SP5` or `15 SP5`; endoflife.date names that cycle `15.5`. */
function slesVersion(version: string, name: string): string | null {
  const sp = /(\d{1,2})[ -]?sp(\d{1,2})\b/.exec(`${version} ${name}`);
  if (sp) return `${sp[1]}.${sp[2]}`;
  return firstVersion(version, name);
}

type VersionOf = (version: string, name: string) => string | null;

interface Rule {
  readonly product: string;
  readonly matches: (name: string, version: string) => boolean;
  readonly versionOf: VersionOf;
}

/**
 * Software is recognised before operating systems because banners name the OS they were built for
 * (`nginx/1.18.0 (Ubuntu)`, `PostgreSQL 11.22 on x86_64-pc-linux-gnu, compiled by gcc (Debian …)`).
 * Operating systems are recognised from the name only: a package version such as `2.4.52-1ubuntu4`
 * says nothing about which OS the host runs.
 */
const RULES: readonly Rule[] = [
  // Before OpenSSL: `ssh -V` prints `OpenSSH_8.9p1 Ubuntu-3ubuntu0.4, OpenSSL 3.0.2 15 Mar 2022`.
  { product: "openssh", matches: (n) => n.includes("openssh"), versionOf: firstVersion },
  { product: "openssl", matches: (n) => n.includes("openssl"), versionOf: firstVersion },
  // MariaDB installs a `mysql` client and reports itself as `mysql Ver 15.1 Distrib 10.6.12-MariaDB`.
  {
    product: "mariadb",
    matches: (n, v) => n.includes("mariadb") || (/\bmysqld?\b/.test(n) && v.includes("mariadb")),
    versionOf: mariadbVersion,
  },
  {
    product: "mysql",
    matches: (n) => /\bmysqld?\b/.test(n),
    versionOf: (v, n) => distribVersion(`${v} ${n}`) ?? firstVersion(v, n),
  },
  { product: "mssqlserver", matches: (n) => /\bsql server\b|\bmssql/.test(n), versionOf: sqlServerVersion },
  { product: "postgresql", matches: (n) => n.includes("postgres"), versionOf: firstVersion },
  { product: "mongodb", matches: (n) => /\bmongo(db|d)?\b/.test(n), versionOf: firstVersion },
  { product: "redis", matches: (n) => /\bredis(-server)?\b/.test(n), versionOf: firstVersion },
  { product: "nginx", matches: (n) => /\bnginx\b/.test(n), versionOf: firstVersion },
  // Before Apache httpd: Tomcat reports itself as `Apache Tomcat/9.0.80`.
  { product: "tomcat", matches: (n) => n.includes("tomcat"), versionOf: firstVersion },
  {
    product: "apache-http-server",
    matches: (n) => /\bapache\/\d|apache http server|\bhttpd\b|\bapache2\b|^apache(?: \d|$)/.test(n),
    versionOf: firstVersion,
  },
  {
    product: "nodejs",
    matches: (n) => /^node(?: |$)|\bnode\.?js\b/.test(n),
    versionOf: firstVersion,
  },
  {
    product: "python",
    // `python`, `python3`, `python3.8`, `Python 3.8.10`, `IDLE (Python 3.11)`, not `python3-requests`.
    matches: (n) => /(?:^|[\s(])c?python(?:\d{1,2}(?:\.\d{1,2})?)?(?:$|[\s)])/.test(n),
    versionOf: firstVersion,
  },
  {
    product: "php",
    // `php`, `PHP 7.4.33 (cli)`, `php8.1-fpm`, not `phpMyAdmin`.
    matches: (n) => /(?:^|[\s(])php(?:\d{1,2}(?:\.\d{1,2})?)?(?:$|[\s/-])/.test(n),
    versionOf: firstVersion,
  },
  // .NET Framework (4.x) is a different product with its own lifecycle, not in the dataset.
  {
    product: "dotnet",
    matches: (n) => /(?:\.net|\bdotnet)\b/.test(n) && !/\.net framework/.test(n),
    versionOf: firstVersion,
  },
  {
    product: "eclipse-temurin",
    matches: (n) => /\b(temurin|adoptium|adoptopenjdk)\b/.test(n),
    versionOf: javaVersion,
  },
  // Only names that are Oracle's own builds; other OpenJDK builds (distribution packages, Corretto, Zulu) have
  // their vendors' lifecycles, which the dataset does not carry, so they stay unidentified.
  {
    product: "oracle-jdk",
    matches: (n) =>
      /\boracle\b.*\b(java|jdk|jre)\b|java\(tm\)|\bjava se\b|^java \d{1,2} update\b|^java version\b/.test(n),
    versionOf: javaVersion,
  },
  {
    product: "windows-server",
    matches: (n) => /^(?:microsoft )?windows server\b/.test(n),
    versionOf: windowsServerVersion,
  },
  {
    product: "windows",
    matches: (n) => /^(?:microsoft )?windows (?:xp|vista|7|8(?:\.1)?|10|11)\b/.test(n),
    versionOf: windowsClientVersion,
  },
  { product: "macos", matches: (n) => /^(?:apple )?(?:mac ?os(?: x)?|os x)\b/.test(n), versionOf: firstVersion },
  { product: "ubuntu", matches: (n) => /\bubuntu\b/.test(n), versionOf: firstVersion },
  { product: "debian", matches: (n) => /\bdebian\b/.test(n), versionOf: firstVersion },
  { product: "centos-stream", matches: (n) => /\bcentos stream\b/.test(n), versionOf: firstVersion },
  { product: "centos", matches: (n) => /\bcentos\b/.test(n), versionOf: firstVersion },
  { product: "rhel", matches: (n) => /\bred ?hat enterprise linux\b|\brhel\b/.test(n), versionOf: firstVersion },
  { product: "rocky-linux", matches: (n) => /\brocky\b/.test(n), versionOf: firstVersion },
  { product: "almalinux", matches: (n) => /\balma ?linux\b/.test(n), versionOf: firstVersion },
  {
    product: "sles",
    matches: (n) => /\bsuse linux enterprise server\b|\bsles\b/.test(n),
    versionOf: slesVersion,
  },
  { product: "fedora", matches: (n) => /\bfedora\b/.test(n), versionOf: firstVersion },
  { product: "amazon-linux", matches: (n) => /\bamazon linux\b/.test(n), versionOf: firstVersion },
];

/**
 * Identifies the dataset product and normalized version of an inventory entry, or null when the name is not a
 * product the dataset covers or no version can be read from it. Never throws, whatever the input.
 */
export function identifyProduct(name: string, version: string): ProductRef | null {
  const n = clean(name);
  // Debian and RPM package versions may carry an epoch (`1:2.4.52-1ubuntu4`) that is not part of the version.
  const v = clean(version).replace(/^\d{1,4}:(?=\d)/, "");
  if (n === "" || NOT_THE_PRODUCT.test(n)) return null;
  for (const rule of RULES) {
    if (!rule.matches(n, v)) continue;
    const normalized = rule.versionOf(v, n);
    return normalized ? { product: rule.product, version: normalized } : null;
  }
  return null;
}
