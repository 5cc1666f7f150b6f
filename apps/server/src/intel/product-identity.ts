/**
 * Which product an inventory entry or a disclosed banner is, in the terms the KEV catalogue uses (vendorProject +
 * product). KEV names products as vendors market them ("Apache | HTTP Server", "OpenBSD | OpenSSH"), inventories as
 * packages and installers do ("apache2", "openssh-server", "Microsoft Exchange Server 2019 CU12"); neither carries
 * a shared identifier (no CPE in KEV). So: a registry of the products clinics run, each with the KEV names it goes
 * by and the inventory names that mean it; and for anything else an exact match of the whole normalized name.
 * Pure. docs/intelligence.md lists the rules.
 */

/** Words of installer names that say nothing about which product it is: versions, architectures, updates. */
const NOISE = /^(?:v?\d[\d.]*[a-z]{0,2}\d*|x64|x86|amd64|arm64|i386|i686|64 ?bit|32 ?bit|cu\d*|sp\d*|update|kb\d+)$/;

/** Lower case; ™/®, parentheticals ("(x64 en-US)"), versions and architecture words dropped; words single-spaced. */
export function normalizeProductName(text: string): string {
  return text
    .slice(0, 256)
    .toLowerCase()
    .replace(/[™®©]/g, "")
    .replace(/\([^)]{0,80}\)/g, " ")
    .replace(/\b7-zip\b/g, "7zip") // a product whose name starts with a number
    .split(/[^a-z0-9+#.]+/)
    .map((w) => w.replace(/^\.+|\.+$/g, ""))
    .filter((w) => w !== "" && !NOISE.test(w))
    .join(" ");
}

export interface KnownProduct {
  readonly id: string;
  readonly title: string;
  /** KEV entries of this product: vendorProject and product, normalized, each a whole-name match. */
  readonly kev: readonly { readonly vendor: string; readonly products: readonly string[] }[];
  /** Normalized inventory or banner names that mean this product. */
  readonly names: RegExp;
}

/** The registry: products seen in small practices (servers, remote access, backup, browsers, office, runtimes). */
export const KNOWN_PRODUCTS: readonly KnownProduct[] = [
  {
    id: "apache-http-server",
    title: "Apache HTTP Server",
    kev: [{ vendor: "apache", products: ["http server", "apache", "apache http server"] }],
    names: /^(?:apache|apache2|apache2 bin|httpd|apache http server|apache httpd)$/,
  },
  {
    id: "nginx",
    title: "nginx",
    kev: [
      { vendor: "f5", products: ["nginx"] },
      { vendor: "nginx", products: ["nginx"] },
    ],
    names: /^nginx(?: core| full| light)?$/,
  },
  {
    id: "openssh",
    title: "OpenSSH",
    kev: [
      { vendor: "openbsd", products: ["openssh"] },
      { vendor: "openssh", products: ["openssh"] },
    ],
    names: /^(?:openssh|openssh server|openssh client|openssh sftp server)$/,
  },
  {
    id: "openssl",
    title: "OpenSSL",
    kev: [{ vendor: "openssl", products: ["openssl"] }],
    names: /^(?:openssl|libssl)$/,
  },
  {
    id: "php",
    title: "PHP",
    kev: [{ vendor: "php", products: ["php", "fastcgi process manager fpm"] }],
    names: /^(?:php|php cli|php fpm|php common)$/,
  },
  { id: "git", title: "Git", kev: [{ vendor: "git", products: ["git"] }], names: /^(?:git|git for windows|git core)$/ },
  { id: "sudo", title: "sudo", kev: [{ vendor: "sudo", products: ["sudo"] }], names: /^sudo$/ },
  {
    id: "bash",
    title: "GNU Bash",
    kev: [{ vendor: "gnu", products: ["bourne again shell bash", "bash"] }],
    names: /^(?:bash|gnu bash)$/,
  },
  {
    id: "polkit",
    title: "polkit",
    kev: [{ vendor: "red hat", products: ["polkit"] }],
    names: /^(?:polkit|policykit 1|libpolkit gobject 1 0)$/,
  },
  {
    id: "exim",
    title: "Exim",
    kev: [{ vendor: "exim", products: ["exim"] }],
    names: /^(?:exim|exim4|exim4 daemon heavy|exim4 daemon light)$/,
  },
  {
    id: "tomcat",
    title: "Apache Tomcat",
    kev: [{ vendor: "apache", products: ["tomcat"] }],
    names: /^(?:tomcat|apache tomcat|tomcat9|tomcat10)$/,
  },
  {
    id: "exchange",
    title: "Microsoft Exchange Server",
    kev: [{ vendor: "microsoft", products: ["exchange server", "exchange"] }],
    names: /^microsoft exchange server(?: cu)?$/,
  },
  {
    id: "sharepoint",
    title: "Microsoft SharePoint",
    kev: [{ vendor: "microsoft", products: ["sharepoint", "sharepoint server"] }],
    names: /^microsoft sharepoint(?: server)?$/,
  },
  {
    id: "veeam-backup",
    title: "Veeam Backup & Replication",
    kev: [{ vendor: "veeam", products: ["backup replication"] }],
    names: /^veeam backup (?:and )?replication$/,
  },
  {
    id: "screenconnect",
    title: "ConnectWise ScreenConnect",
    kev: [{ vendor: "connectwise", products: ["screenconnect"] }],
    names: /^(?:connectwise screenconnect|screenconnect|screenconnect client|screenconnect server)$/,
  },
  { id: "winrar", title: "WinRAR", kev: [{ vendor: "rarlab", products: ["winrar"] }], names: /^winrar$/ },
  { id: "7-zip", title: "7-Zip", kev: [{ vendor: "7zip", products: ["7zip"] }], names: /^7zip$/ },
  {
    id: "chrome",
    title: "Google Chrome",
    kev: [
      {
        vendor: "google",
        products: ["chromium", "chromium v8", "chrome", "chromium mojo", "chromium skia", "chromium angle"],
      },
    ],
    names: /^(?:google chrome|chromium|chromium browser)$/,
  },
  {
    id: "firefox",
    title: "Mozilla Firefox",
    kev: [{ vendor: "mozilla", products: ["firefox", "firefox and thunderbird", "firefox esr"] }],
    names: /^(?:mozilla firefox|firefox|firefox esr)(?: esr)?(?: en us)?$/,
  },
  {
    id: "acrobat-reader",
    title: "Adobe Acrobat and Reader",
    kev: [
      {
        vendor: "adobe",
        products: ["acrobat and reader", "reader and acrobat", "acrobat", "reader", "acrobat reader"],
      },
    ],
    names: /^adobe (?:acrobat(?: reader)?(?: dc)?|reader(?: dc)?)(?: mui)?$/,
  },
  {
    id: "java",
    title: "Oracle Java SE",
    kev: [{ vendor: "oracle", products: ["java se", "java runtime environment jre", "jre", "java se and jrockit"] }],
    names: /^(?:java(?: se)?(?: runtime environment)?|java update|oracle java)$/,
  },
  {
    id: "moveit-transfer",
    title: "Progress MOVEit Transfer",
    kev: [{ vendor: "progress", products: ["moveit transfer"] }],
    names: /^(?:progress )?moveit transfer$/,
  },
  {
    id: "confluence",
    title: "Atlassian Confluence",
    kev: [
      {
        vendor: "atlassian",
        products: ["confluence server and data center", "confluence data center and server", "confluence"],
      },
    ],
    names: /^(?:atlassian )?confluence(?: server)?$/,
  },
  {
    id: "imagemagick",
    title: "ImageMagick",
    kev: [{ vendor: "imagemagick", products: ["imagemagick"] }],
    names: /^imagemagick(?: 6 q16| q16)?$/,
  },
];

/** The registry entry an inventory name means, if any. */
export function knownProductOf(name: string): KnownProduct | null {
  const n = normalizeProductName(name);
  return KNOWN_PRODUCTS.find((p) => p.names.test(n)) ?? null;
}

/** The registry entry a KEV entry belongs to, if any. */
export function knownProductOfKev(vendorProject: string, product: string): KnownProduct | null {
  const v = normalizeProductName(vendorProject);
  const p = normalizeProductName(product);
  return KNOWN_PRODUCTS.find((k) => k.kev.some((s) => s.vendor === v && s.products.includes(p))) ?? null;
}

/** Names too generic to identify a product on their own ("Multiple Products", "Kernel", "Windows"…). */
const GENERIC = new Set([
  "multiple products",
  "kernel",
  "windows",
  "framework",
  "mobile devices",
  "devices",
  "firmware",
]);

/**
 * The key a KEV entry is found under: its registry id, else `name:<vendor product>` (the whole normalized name,
 * e.g. `name:roundcube webmail`), null for generic names that identify nothing.
 */
export function kevProductKey(vendorProject: string, product: string): string | null {
  const known = knownProductOfKev(vendorProject, product);
  if (known) return known.id;
  const p = normalizeProductName(product);
  if (p === "" || GENERIC.has(p)) return null;
  const v = normalizeProductName(vendorProject);
  return `name:${p.startsWith(`${v} `) || p === v ? p : `${v} ${p}`}`;
}

/** The keys an inventory entry is looked up under: its registry id, else its whole normalized name. */
export function inventoryProductKeys(name: string): string[] {
  const known = knownProductOf(name);
  if (known) return [known.id];
  const n = normalizeProductName(name);
  return n.length >= 3 && !GENERIC.has(n) ? [`name:${n}`] : [];
}
