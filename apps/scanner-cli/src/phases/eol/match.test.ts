import fc from "fast-check";
import { describe, expect, it } from "vitest";
import rawDataset from "./dataset.json" with { type: "json" };
import {
  EOL_DATASET,
  EOL_DATASET_DATE,
  EolDatasetSchema,
  type EolMatch,
  identifyProduct,
  matchEndOfLife,
} from "./match.js";

/** Fixed so the verdicts below never change with the calendar. */
const TODAY = new Date("2026-01-15T12:00:00Z");

function day(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}

function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
}

/** identify + match, as the eol phase will use them. */
function check(name: string, version: string, today: Date = TODAY): EolMatch {
  const ref = identifyProduct(name, version);
  if (!ref) throw new Error(`not identified: ${name} ${version}`);
  return matchEndOfLife(ref, today);
}

describe("dataset.json", () => {
  it("matches the schema: valid ISO dates, non-empty cycles, snapshot date present", () => {
    const parsed = EolDatasetSchema.safeParse(rawDataset);
    expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 5))).toBe(true);
    expect(EOL_DATASET_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(EOL_DATASET.source).toBe("endoflife.date (MIT License)");
    expect(EOL_DATASET.license).toContain("Copyright 2020 endoflife.date contributors");
  });

  it("is frozen, so one caller cannot change another caller's answers", () => {
    expect(Object.isFrozen(EOL_DATASET.products)).toBe(true);
    expect(Object.isFrozen(EOL_DATASET.products.ubuntu?.cycles[0])).toBe(true);
  });

  it("dates the snapshot by its newest product data, and no product claims to be newer", () => {
    const asOf = Object.values(EOL_DATASET.products).map((p) => p.as_of);
    expect(asOf.every((d) => d <= EOL_DATASET_DATE)).toBe(true);
    expect(asOf).toContain(EOL_DATASET_DATE);
  });

  it("has unique cycle ids per product and release dates no later than the product's as_of", () => {
    for (const [id, product] of Object.entries(EOL_DATASET.products)) {
      const ids = product.cycles.map((c) => c.cycle);
      expect(new Set(ids).size, id).toBe(ids.length);
      for (const c of product.cycles) if (c.release) expect(c.release <= product.as_of, `${id} ${c.cycle}`).toBe(true);
    }
  });

  it("covers the operating systems and server software the brief asks for", () => {
    const expected = [
      "windows",
      "windows-server",
      "macos",
      "ubuntu",
      "debian",
      "rhel",
      "centos",
      "rocky-linux",
      "almalinux",
      "sles",
      "fedora",
      "amazon-linux",
      "nginx",
      "apache-http-server",
      "openssl",
      "postgresql",
      "mysql",
      "mariadb",
      "mssqlserver",
      "nodejs",
      "python",
      "php",
      "eclipse-temurin",
      "oracle-jdk",
      "tomcat",
      "redis",
      "mongodb",
      "dotnet",
      "openssh",
    ];
    for (const id of expected) expect(Object.keys(EOL_DATASET.products)).toContain(id);
  });

  it("keeps build numbers for every Windows cycle, which the build → release mapping relies on", () => {
    for (const id of ["windows", "windows-server", "mssqlserver"]) {
      for (const c of EOL_DATASET.products[id]?.cycles ?? []) expect(c.latest, `${id} ${c.cycle}`).toMatch(/^\d+\.\d+/);
    }
  });
});

describe("identifyProduct", () => {
  it.each([
    ["Debian GNU/Linux", "12", "debian", "12"],
    ["Ubuntu", "20.04.6 LTS", "ubuntu", "20.04.6"],
    ["Ubuntu", "22.04.3 LTS (Jammy Jellyfish)", "ubuntu", "22.04.3"],
    ["Microsoft Windows 10 Pro", "10.0.19045", "windows", "10.0.19045+w"],
    ["Microsoft Windows 10 Enterprise", "10.0.19044", "windows", "10.0.19044+e"],
    ["Microsoft Windows 10 Enterprise LTSC 2021", "10.0.19044", "windows", "10.0.19044+e-lts"],
    ["Microsoft Windows 10 IoT Enterprise LTSC", "10.0.19044", "windows", "10.0.19044+iot-lts"],
    ["Microsoft Windows 10 Pro Education", "10.0.19045.3803", "windows", "10.0.19045+w"],
    ["Microsoft Windows 11 Home", "10.0.22631", "windows", "10.0.22631+w"],
    ["Microsoft Windows 7 Professional", "6.1.7601", "windows", "6.1+w"],
    ["Microsoft Windows 8.1 Pro", "", "windows", "6.3+w"],
    ["Microsoft Windows Server 2012 R2 Standard", "", "windows-server", "2012-r2"],
    ["Microsoft Windows Server 2019 Datacenter", "10.0.17763", "windows-server", "2019"],
    ["Microsoft Windows Server Standard", "10.0.25398", "windows-server", "10.0.25398"],
    ["macOS", "13.6.1", "macos", "13.6.1"],
    ["Mac OS X", "10.15.7", "macos", "10.15.7"],
    ["CentOS Linux", "7.9.2009", "centos", "7.9.2009"],
    ["CentOS Stream", "9", "centos-stream", "9"],
    ["Red Hat Enterprise Linux", "8.10 (Ootpa)", "rhel", "8.10"],
    ["Rocky Linux", "9.3 (Blue Onyx)", "rocky-linux", "9.3"],
    ["AlmaLinux", "9.4", "almalinux", "9.4"],
    ["SUSE Linux Enterprise Server", "15-SP5", "sles", "15.5"],
    ["SLES", "12.5", "sles", "12.5"],
    ["Fedora Linux", "39 (Server Edition)", "fedora", "39"],
    ["Amazon Linux", "2023", "amazon-linux", "2023"],
    ["nginx", "1.18.0", "nginx", "1.18.0"],
    ["nginx/1.18.0 (Ubuntu)", "", "nginx", "1.18.0"],
    ["Apache/2.4.57", "", "apache-http-server", "2.4.57"],
    ["Server version: Apache/2.4.57 (Debian)", "", "apache-http-server", "2.4.57"],
    ["apache2", "2.4.52-1ubuntu4.7", "apache-http-server", "2.4.52"],
    ["httpd", "2.4.37", "apache-http-server", "2.4.37"],
    ["Apache Tomcat/9.0.80", "", "tomcat", "9.0.80"],
    ["OpenSSL 1.1.1w", "", "openssl", "1.1.1w"],
    ["OpenSSL 3.0.2 15 Mar 2022 (Library: OpenSSL 3.0.2 15 Mar 2022)", "", "openssl", "3.0.2"],
    ["OpenSSH_8.9p1 Ubuntu-3ubuntu0.4, OpenSSL 3.0.2 15 Mar 2022", "", "openssh", "8.9p1"],
    ["PostgreSQL 11.22", "", "postgresql", "11.22"],
    [
      "PostgreSQL 11.22 on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit",
      "",
      "postgresql",
      "11.22",
    ],
    ["psql (PostgreSQL) 14.9", "", "postgresql", "14.9"],
    ["node", "v16.20.2", "nodejs", "16.20.2"],
    ["Node.js", "20.11.0", "nodejs", "20.11.0"],
    ["Python 3.8.10", "", "python", "3.8.10"],
    ["python3.11", "3.11.2-1+b1", "python", "3.11.2"],
    ["PHP 7.4.33", "", "php", "7.4.33"],
    ["php8.1-fpm", "8.1.2-1ubuntu2.14", "php", "8.1.2"],
    ["mysql", "5.7.44", "mysql", "5.7.44"],
    ["mysql", "Ver 14.14 Distrib 5.7.44, for Linux (x86_64)", "mysql", "5.7.44"],
    ["mysql", "Ver 15.1 Distrib 10.6.12-MariaDB, for debian-linux-gnu", "mariadb", "10.6.12"],
    ["MariaDB", "5.5.5-10.11.6-MariaDB", "mariadb", "10.11.6"],
    ["mariadb-server", "1:10.11.6-0+deb12u1", "mariadb", "10.11.6"],
    ["Microsoft SQL Server 2019 (RTM-CU22) (KB5027702) - 15.0.4322.2 (X64)", "", "mssqlserver", "15.0.4322"],
    ["Microsoft SQL Server 2016", "", "mssqlserver", "2016"],
    ["Microsoft SQL Server 2008 R2", "", "mssqlserver", "2008 r2"],
    ["redis-server", "Redis server v=7.0.11 sha=00000000:0 malloc=jemalloc-5.2.1 bits=64", "redis", "7.0.11"],
    ["MongoDB", "db version v4.4.29", "mongodb", "4.4.29"],
    ["Microsoft .NET Runtime - 6.0.25 (x64)", "6.0.25", "dotnet", "6.0.25"],
    ["Microsoft ASP.NET Core 8.0.1 - Shared Framework (x64)", "", "dotnet", "8.0.1"],
    ["Eclipse Temurin JDK with Hotspot 17.0.8.1+1 (x64)", "", "eclipse-temurin", "17.0.8.1"],
    ["Java 8 Update 381", "8.0.3810.9", "oracle-jdk", "8u381"],
    ["Java(TM) SE Runtime Environment", "1.8.0_381", "oracle-jdk", "8.0"],
    ["Java SE Development Kit 21.0.2 (64-bit)", "21.0.2.0", "oracle-jdk", "21.0.2.0"],
  ])("%s %s → %s %s", (name, version, product, normalized) => {
    expect(identifyProduct(name, version)).toEqual({ product, version: normalized });
  });

  it.each([
    ["Microsoft ODBC Driver 17 for SQL Server", "17.10.5.1"],
    ["SQL Server Management Studio", "19.1"],
    ["MySQL Connector/ODBC 8.0", "8.0.33"],
    ["MongoDB Compass", "1.40.4"],
    ["mongosh", "2.1.1"],
    ["Microsoft .NET Framework 4.8", "4.8.04084"],
    ["phpMyAdmin", "5.2.1"],
    ["python3-requests", "2.28.1"],
    ["Apache Kafka", "3.6.1"],
    ["OpenJDK Runtime Environment", "17.0.9"],
    ["Microsoft Windows 10 Pro", ""],
    ["Microsoft Windows 11 Pro", "not a build"],
    ["Debian GNU/Linux", "trixie/sid"],
    ["libfoo", "2.4.52-1ubuntu4"],
    ["Darwin", "22.6.0"],
    ["Google Chrome", "120.0.6099.110"],
  ])("does not identify %s %s", (name, version) => {
    expect(identifyProduct(name, version)).toBeNull();
  });

  it("always names a product that the dataset has", () => {
    const samples = [
      ["Ubuntu", "24.04"],
      ["nginx", "1.26.0"],
      ["Microsoft Windows Server 2022 Standard", ""],
      ["openssh", "9.6"],
      ["AlmaLinux", "9"],
    ] as const;
    for (const [name, version] of samples) {
      const ref = identifyProduct(name, version);
      expect(ref && Object.hasOwn(EOL_DATASET.products, ref.product)).toBe(true);
    }
  });
});

describe("matchEndOfLife on real examples (today = 2026-01-15)", () => {
  it.each([
    // Windows clients: build → feature update, split by servicing track.
    ["Microsoft Windows 7 Professional", "6.1.7601", "7-sp1", "eol", "2020-01-14"],
    ["Microsoft Windows 8.1 Pro", "6.3.9600", "8.1", "eol", "2023-01-10"],
    ["Microsoft Windows 10 Pro", "10.0.19044", "10-21h2-w", "eol", "2023-06-13"],
    ["Microsoft Windows 10 Enterprise", "10.0.19044", "10-21h2-e", "eol", "2024-06-11"],
    ["Microsoft Windows 10 Enterprise LTSC 2021", "10.0.19044", "10-21h2-e-lts", "supported", "2027-01-12"],
    ["Microsoft Windows 11 Pro", "10.0.22000", "11-21h2-w", "eol", "2023-10-10"],
    ["Microsoft Windows 11 Pro", "10.0.22621", "11-22h2-w", "eol", "2024-10-08"],
    ["Microsoft Windows 11 Pro", "10.0.22631", "11-23h2-w", "eol", "2025-11-11"],
    ["Microsoft Windows 11 Enterprise", "10.0.22631", "11-23h2-e", "supported", "2026-11-10"],
    ["Microsoft Windows 11 Home", "10.0.26100", "11-24h2-w", "supported", "2026-10-13"],
    // Windows Server.
    ["Microsoft Windows Server 2008 R2 Enterprise", "6.1.7601", "2008-r2-sp1", "eol", "2020-01-14"],
    ["Microsoft Windows Server 2016 Standard", "10.0.14393", "2016", "supported", "2027-01-12"],
    ["Microsoft Windows Server 2019 Standard", "10.0.17763", "2019", "supported", "2029-01-09"],
    ["Microsoft Windows Server 2022 Datacenter", "10.0.20348", "2022", "supported", "2031-10-14"],
    ["Microsoft Windows Server Datacenter", "10.0.17763", "2019", "supported", "2029-01-09"],
    // Linux and macOS.
    ["Debian GNU/Linux", "9", "9", "eol", "2020-07-18"],
    ["Debian GNU/Linux", "10", "10", "eol", "2022-09-10"],
    ["Debian GNU/Linux", "12", "12", "supported", "2026-06-10"],
    ["Ubuntu", "22.04.3 LTS", "22.04", "supported", "2027-04-01"],
    ["Ubuntu", "24.04.1 LTS", "24.04", "supported", "2029-05-31"],
    ["Ubuntu", "23.10", "23.10", "eol", "2024-07-12"],
    ["CentOS Linux", "7.9.2009", "7", "eol", "2024-06-30"],
    ["CentOS Linux", "8.5.2111", "8", "eol", "2021-12-31"],
    ["Red Hat Enterprise Linux", "9.4", "9", "supported", "2032-05-31"],
    ["Rocky Linux", "8.9", "8", "supported", "2029-05-31"],
    ["AlmaLinux", "10.0", "10", "supported", "2035-05-31"],
    ["SUSE Linux Enterprise Server", "15-SP4", "15.4", "supported", "2023-12-31"],
    ["Fedora Linux", "39", "39", "eol", "2024-11-26"],
    ["Amazon Linux", "2023", "2023", "supported", "2028-03-15"],
    ["macOS", "11.7.10", "11", "eol", "2023-09-26"],
    ["macOS", "12.7.6", "12", "eol", "2024-09-16"],
    ["macOS", "13.6.1", "13", "eol", "2025-09-15"],
    ["Mac OS X", "10.15.7", "10.15", "eol", "2022-09-12"],
    // Server software.
    ["OpenSSL 1.0.2u", "", "1.0.2", "eol", "2019-12-31"],
    ["OpenSSL 1.1.1w", "", "1.1.1", "eol", "2023-09-11"],
    ["OpenSSL 3.0.13", "", "3.0", "supported", "2026-09-07"],
    ["PostgreSQL 10.23", "", "10", "eol", "2022-11-10"],
    ["PostgreSQL 11.22", "", "11", "eol", "2023-11-09"],
    ["PostgreSQL 12.22", "", "12", "eol", "2024-11-21"],
    ["PostgreSQL 13.20", "", "13", "eol", "2025-11-13"],
    ["PostgreSQL 14.17", "", "14", "supported", "2026-11-12"],
    ["PostgreSQL 15.12", "", "15", "supported", "2027-11-11"],
    ["PostgreSQL 16.8", "", "16", "supported", "2028-11-09"],
    ["PostgreSQL 17.4", "", "17", "supported", "2029-11-08"],
    ["node", "v14.21.3", "14", "eol", "2023-04-30"],
    ["node", "v16.20.2", "16", "eol", "2023-09-11"],
    ["node", "v18.20.7", "18", "eol", "2025-04-30"],
    ["node", "v20.18.3", "20", "supported", "2026-04-30"],
    ["node", "v22.14.0", "22", "supported", "2027-04-30"],
    ["Python 2.7.18", "", "2.7", "eol", "2020-01-01"],
    ["Python 3.8.10", "", "3.8", "eol", "2024-10-07"],
    ["Python 3.9.21", "", "3.9", "eol", "2025-10-31"],
    ["Python 3.10.12", "", "3.10", "supported", "2026-10-31"],
    ["Python 3.11.11", "", "3.11", "supported", "2027-10-31"],
    ["Python 3.12.9", "", "3.12", "supported", "2028-10-31"],
    ["Python 3.13.2", "", "3.13", "supported", "2029-10-31"],
    ["PHP 7.4.33", "", "7.4", "eol", "2022-11-28"],
    ["PHP 8.0.30", "", "8.0", "eol", "2023-11-26"],
    ["PHP 8.1.34", "", "8.1", "eol", "2025-12-31"],
    ["PHP 8.2.30", "", "8.2", "supported", "2026-12-31"],
    ["PHP 8.3.30", "", "8.3", "supported", "2027-12-31"],
    ["PHP 8.4.18", "", "8.4", "supported", "2028-12-31"],
    ["nginx", "1.18.0", "1.18", "eol", "2021-04-20"],
    ["nginx", "1.26.3", "1.26", "eol", "2025-04-23"],
    ["mysql", "5.7.44", "5.7", "eol", "2023-10-31"],
    ["mysql", "8.0.45", "8.0", "supported", "2026-04-30"],
    ["mysql", "8.4.9", "8.4", "supported", "2032-04-30"],
    ["mysql", "Ver 15.1 Distrib 10.6.12-MariaDB", "10.6", "supported", "2026-07-06"],
    ["Apache Tomcat/8.5.90", "", "8.5", "eol", "2024-03-31"],
    ["Microsoft SQL Server 2019 (RTM-CU22) (KB5027702) - 15.0.4322.2 (X64)", "", "15.0", "supported", "2030-01-08"],
    ["MongoDB", "db version v4.4.29", "4.4", "eol", "2024-02-29"],
    ["redis-server", "7.0.11", "7.0", "eol", "2024-07-29"],
    ["Microsoft .NET Runtime - 6.0.25 (x64)", "6.0.25", "6", "eol", "2024-11-12"],
    ["Microsoft .NET Runtime - 8.0.1 (x64)", "8.0.1", "8", "supported", "2026-11-10"],
    ["Java(TM) SE Runtime Environment", "1.8.0_381", "8", "supported", "2030-12-31"],
    ["Eclipse Temurin JDK with Hotspot 11.0.21+9 (x64)", "", "11", "supported", "2027-10-31"],
  ])("%s %s → %s %s (eol %s)", (name, version, cycle, status, eol) => {
    const m = check(name, version);
    expect({ cycle: m.cycle, status: m.status }).toEqual({ cycle, status });
    if (!m.inExtendedSupport) expect(m.eol).toBe(eol);
  });

  it("counts days to the eol date while supported and days since it once past", () => {
    const supported = check("PostgreSQL 14.17", "");
    expect(supported.daysLeft).toBe(daysBetween("2026-01-15", "2026-11-12"));
    const past = check("PHP 7.4.33", "");
    expect(past.daysLeft).toBe(-daysBetween("2022-11-28", "2026-01-15"));
  });

  it("treats documented extended support (ESU, ESM, Debian LTS) as supported, and says so", () => {
    const win10 = check("Microsoft Windows 10 Pro", "10.0.19045");
    expect(win10).toMatchObject({
      cycle: "10-22h2",
      status: "supported",
      eol: "2025-10-14",
      extendedUntil: "2028-10-10",
      inExtendedSupport: true,
      daysLeft: daysBetween("2026-01-15", "2028-10-10"),
    });
    expect(check("Microsoft Windows Server 2012 R2 Standard", "")).toMatchObject({
      cycle: "2012-r2",
      status: "supported",
      eol: "2023-10-10",
      extendedUntil: "2026-10-13",
      inExtendedSupport: true,
    });
    for (const [version, cycle, until] of [
      ["16.04.7 LTS", "16.04", "2026-04-02"],
      ["18.04.6 LTS", "18.04", "2028-04-01"],
      ["20.04.6 LTS", "20.04", "2030-04-02"],
    ] as const) {
      expect(check("Ubuntu", version)).toMatchObject({
        cycle,
        status: "supported",
        extendedUntil: until,
        inExtendedSupport: true,
      });
    }
    expect(check("Debian GNU/Linux", "11")).toMatchObject({
      cycle: "11",
      status: "supported",
      inExtendedSupport: true,
    });
  });

  it("does not count ended or undated extended support", () => {
    // Windows Server 2008 R2's ESU ended 2023-01-10; OpenSSL 1.1.1's premium support has no public end date.
    expect(check("Microsoft Windows Server 2008 R2 Standard", "")).toMatchObject({
      status: "eol",
      inExtendedSupport: false,
    });
    expect(check("OpenSSL 1.1.1w", "")).toMatchObject({ status: "eol", inExtendedSupport: false });
    expect(check("node", "v16.20.2")).toMatchObject({ status: "eol", extendedUntil: null });
  });

  it("reports an ongoing cycle without an announced end as supported with no countdown", () => {
    expect(check("macOS", "14.6")).toMatchObject({ cycle: "14", status: "supported", eol: null, daysLeft: null });
    expect(check("macOS", "15.7.4")).toMatchObject({ cycle: "15", status: "supported", eol: null, daysLeft: null });
    expect(check("nginx", "1.28.0")).toMatchObject({ cycle: "1.28", status: "supported", eol: null, daysLeft: null });
    expect(check("Apache/2.4.62", "")).toMatchObject({ cycle: "2.4", status: "supported", eol: null });
  });

  it("reports `eol: true` without a date as eol with a null date", () => {
    expect(matchEndOfLife({ product: "nodejs", version: "3.3.1" }, TODAY)).toMatchObject({
      cycle: "3",
      status: "eol",
      eol: null,
      daysLeft: null,
    });
  });

  it("chooses the longest matching cycle prefix", () => {
    expect(matchEndOfLife({ product: "python", version: "3.10.4" }, TODAY).cycle).toBe("3.10");
    expect(matchEndOfLife({ product: "python", version: "3.1.5" }, TODAY).cycle).toBe("3.1");
    expect(matchEndOfLife({ product: "sles", version: "15.5" }, TODAY).cycle).toBe("15.5");
    expect(matchEndOfLife({ product: "sles", version: "15" }, TODAY).cycle).toBe("15");
    expect(matchEndOfLife({ product: "amazon-linux", version: "2023.3.20240108" }, TODAY).cycle).toBe("2023");
    expect(matchEndOfLife({ product: "amazon-linux", version: "2" }, TODAY).cycle).toBe("2");
    expect(matchEndOfLife({ product: "tomcat", version: "10.1.16" }, TODAY).cycle).toBe("10.1");
    expect(matchEndOfLife({ product: "oracle-jdk", version: "1.4.2" }, TODAY).cycle).toBe("1.4");
  });

  it("maps Windows builds without an edition to the Home/Pro track, and accepts a revision suffix", () => {
    expect(matchEndOfLife({ product: "windows", version: "10.0.22631.4317" }, TODAY).cycle).toBe("11-23h2-w");
    expect(matchEndOfLife({ product: "windows", version: "10.0.19045" }, TODAY).cycle).toBe("10-22h2");
  });

  it("picks the SQL Server service pack from the build, or the newest one from the year alone", () => {
    expect(matchEndOfLife({ product: "mssqlserver", version: "13.0.5026" }, TODAY).cycle).toBe("13.0-sp2");
    expect(matchEndOfLife({ product: "mssqlserver", version: "13.0.6300" }, TODAY).cycle).toBe("13.0-sp3");
    expect(matchEndOfLife({ product: "mssqlserver", version: "13.0.1601" }, TODAY).cycle).toBe("13.0");
    expect(matchEndOfLife({ product: "mssqlserver", version: "10.50.4000" }, TODAY).cycle).toBe("10.50-sp2");
    expect(matchEndOfLife({ product: "mssqlserver", version: "16.0.9999" }, TODAY).cycle).toBe("16.0");
    expect(check("Microsoft SQL Server 2016", "")).toMatchObject({
      cycle: "13.0-sp3",
      status: "supported",
      eol: "2026-07-14",
    });
    expect(check("Microsoft SQL Server 2008 R2", "")).toMatchObject({ cycle: "10.50-sp3", status: "eol" });
  });

  it("records how current the product's data is", () => {
    const m = check("Ubuntu", "22.04");
    expect(m.asOf).toBe(EOL_DATASET.products.ubuntu?.as_of);
  });
});

describe("matchEndOfLife boundaries", () => {
  // PHP 8.1: security support ends 2025-12-31, no extended phase.
  const php81 = { product: "php", version: "8.1.34" };

  it("is supported on the eol day itself (the last supported day)", () => {
    expect(matchEndOfLife(php81, day("2025-12-31"))).toMatchObject({ status: "supported", daysLeft: 0 });
    expect(matchEndOfLife(php81, new Date("2025-12-31T23:59:59.999Z"))).toMatchObject({ status: "supported" });
  });

  it("is supported the day before and eol the day after", () => {
    expect(matchEndOfLife(php81, day("2025-12-30"))).toMatchObject({ status: "supported", daysLeft: 1 });
    expect(matchEndOfLife(php81, day("2026-01-01"))).toMatchObject({ status: "eol", daysLeft: -1 });
  });

  it("ends extended support the day after its documented end", () => {
    const xenial = { product: "ubuntu", version: "16.04" };
    expect(matchEndOfLife(xenial, day("2026-04-02"))).toMatchObject({
      status: "supported",
      inExtendedSupport: true,
      daysLeft: 0,
    });
    expect(matchEndOfLife(xenial, day("2026-04-03"))).toMatchObject({
      status: "eol",
      inExtendedSupport: false,
      eol: "2021-04-02",
      daysLeft: -daysBetween("2021-04-02", "2026-04-03"),
    });
    // Before the regular eol the extended phase is not the one that applies.
    expect(matchEndOfLife(xenial, day("2021-04-02"))).toMatchObject({
      status: "supported",
      inExtendedSupport: false,
      daysLeft: 0,
    });
  });

  it("uses the UTC calendar day of `today`", () => {
    expect(matchEndOfLife(php81, new Date("2026-01-01T00:00:00.000Z")).status).toBe("eol");
    expect(matchEndOfLife(php81, new Date("2025-12-31T23:59:59.999-00:00")).status).toBe("supported");
  });
});

describe("unknown and hostile input", () => {
  it("returns unknown for products and cycles the dataset does not have", () => {
    expect(matchEndOfLife({ product: "solaris", version: "11" }, TODAY)).toMatchObject({
      status: "unknown",
      cycle: "",
      asOf: null,
    });
    expect(matchEndOfLife({ product: "ubuntu", version: "3.10" }, TODAY)).toMatchObject({
      status: "unknown",
      cycle: "",
    });
    expect(matchEndOfLife({ product: "ubuntu", version: "" }, TODAY).status).toBe("unknown");
    // Windows 11 25H2 (build 26200) is newer than the Windows data in this snapshot: not guessed.
    expect(matchEndOfLife({ product: "windows", version: "10.0.26200+w" }, TODAY).status).toBe("unknown");
    expect(matchEndOfLife({ product: "windows", version: "10" }, TODAY).status).toBe("unknown");
    expect(matchEndOfLife({ product: "windows-server", version: "2030" }, TODAY).status).toBe("unknown");
    expect(matchEndOfLife({ product: "mssqlserver", version: "2031" }, TODAY).status).toBe("unknown");
  });

  it("does not resolve prototype keys as products", () => {
    for (const product of ["__proto__", "constructor", "toString", "hasOwnProperty", "prototype"]) {
      expect(matchEndOfLife({ product, version: "1" }, TODAY).status).toBe("unknown");
    }
  });

  it("returns unknown for an invalid date instead of throwing", () => {
    expect(matchEndOfLife({ product: "ubuntu", version: "22.04" }, new Date("nope")).status).toBe("unknown");
  });

  const hostile = [
    "",
    " ",
    "\u0000",
    ".*",
    "(a+)+$",
    "[",
    "\\",
    "$&$'$`",
    "^(?:windows server (\\d{4}))",
    "Microsoft Windows Server (((((((((((((((((((((",
    "1".repeat(100_000),
    `${"9.".repeat(50_000)}9`,
    "a".repeat(1_000_000),
    "Ubuntu ".repeat(10_000),
    "🙂 Ubuntu 22.04 🙂",
    "v",
    "+e-lts",
    "10.0.19045+" + "x".repeat(10_000),
  ];

  it("never throws on hostile names and versions", () => {
    for (const a of hostile) {
      for (const b of hostile) {
        const ref = identifyProduct(a, b);
        if (ref) expect(Object.hasOwn(EOL_DATASET.products, ref.product)).toBe(true);
        expect(() => matchEndOfLife({ product: a, version: b }, TODAY)).not.toThrow();
        expect(() => matchEndOfLife({ product: "windows", version: b }, TODAY)).not.toThrow();
        expect(() => matchEndOfLife({ product: "mssqlserver", version: b }, TODAY)).not.toThrow();
      }
    }
  });

  it("tolerates values that are not strings at runtime", () => {
    const junk = [null, undefined, 42, {}, [], Symbol("x")] as unknown as string[];
    for (const value of junk) {
      expect(identifyProduct(value, value)).toBeNull();
      expect(matchEndOfLife({ product: value, version: value }, TODAY).status).toBe("unknown");
    }
    expect(matchEndOfLife(null as unknown as { product: string; version: string }, TODAY).status).toBe("unknown");
  });

  it("keeps huge inputs cheap (the inputs are capped before matching)", () => {
    const started = performance.now();
    for (let i = 0; i < 50; i++) identifyProduct("PostgreSQL ".repeat(200_000), "9.".repeat(200_000));
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("never throws for arbitrary strings, and identified products always exist in the dataset", () => {
    const ids = Object.keys(EOL_DATASET.products);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ maxLength: 300 }),
        fc.constantFrom(...ids),
        (name, version, id) => {
          const ref = identifyProduct(name, version);
          if (ref) expect(ids).toContain(ref.product);
          const m = matchEndOfLife({ product: id, version }, TODAY);
          expect(["supported", "eol", "unknown"]).toContain(m.status);
        },
      ),
      { numRuns: 500 },
    );
  });
});
