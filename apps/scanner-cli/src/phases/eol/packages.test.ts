import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTabbedPackages } from "../asset_inventory/parse.js";
import { identifyPackage, packageBuild } from "./packages.js";

const dpkgList = parseTabbedPackages(
  readFileSync(new URL("../asset_inventory/fixtures/linux-dpkg-query.txt", import.meta.url), "utf8"),
);

describe("package identity by exact name per ecosystem", () => {
  it("identifies only the server software on the captured Debian 12 machine, each as Debian's build", () => {
    const identified = dpkgList.flatMap((p) => {
      const ref = identifyPackage("dpkg", p.name, p.version);
      return ref ? [[p.name, ref.product, ref.version, ref.build]] : [];
    });
    expect(identified).toEqual([
      ["libssl3", "openssl", "3.0.19", "distribution"],
      ["mariadb-server", "mariadb", "10.11.19", "distribution"],
      ["mariadb-server-core", "mariadb", "10.11.19", "distribution"],
      // NodeSource's repository: Node.js's own lifecycle.
      ["nodejs", "nodejs", "20.20.2", "upstream"],
      ["openssh-client", "openssh", "9.2p1", "distribution"],
      ["openssh-server", "openssh", "9.2p1", "distribution"],
      ["openssh-sftp-server", "openssh", "9.2p1", "distribution"],
      ["openssl", "openssl", "3.0.19", "distribution"],
      ["postgresql-15", "postgresql", "15.20", "distribution"],
      ["python3.11", "python", "3.11.2", "distribution"],
      ["python3.11-minimal", "python", "3.11.2", "distribution"],
      ["redis-server", "redis", "7.0.15", "distribution"],
    ]);
  });

  it("never reads a package whose name merely contains a product's name as that product", () => {
    for (const [name, version] of [
      ["libengine-gost-openssl", "3.0.1-1"],
      ["libgnutls-openssl27", "3.7.9-2+deb12u6"],
      ["python3-openssl", "23.0.0-1"],
      ["libxmlsec1-openssl", "1.2.37-2"],
      ["mysql-common", "5.8+1.1.0"],
      ["postgresql", "15+248+deb12u2"],
      ["postgresql-client-common", "248+deb12u2"],
      ["debian-archive-keyring", "2023.3+deb12u2"],
      ["redis-tools", "5:7.0.15-1~deb12u10"],
    ] as const) {
      expect(identifyPackage("dpkg", name, version), name).toBeNull();
    }
    expect(identifyPackage("rpm", "openssl-pkcs11", "0.4.11-9.el9")).toBeNull();
  });

  it("tells a distribution's build from a vendor repository's", () => {
    expect(packageBuild("dpkg", "3.0.19-1~deb12u2")).toBe("distribution");
    expect(packageBuild("dpkg", "1:9.2p1-2+deb12u10")).toBe("distribution");
    expect(packageBuild("dpkg", "3.0.2-0ubuntu1.18")).toBe("distribution");
    expect(packageBuild("dpkg", "3.11.2-1+b1")).toBe("distribution");
    // A Debian revision that is a bare number: the package as the release shipped it.
    expect(packageBuild("dpkg", "1.22.1-9")).toBe("distribution");
    expect(packageBuild("rpm", "3.0.7-27.el9")).toBe("distribution");
    expect(packageBuild("rpm", "8.0.36-1.fc40")).toBe("distribution");
    // Vendors' repositories follow the vendor's lifecycle.
    expect(packageBuild("dpkg", "15.4-1.pgdg120+1")).toBe("upstream");
    expect(packageBuild("dpkg", "1.24.0-1~bookworm")).toBe("upstream");
    expect(packageBuild("dpkg", "8.1.2-1+ubuntu22.04.1+deb.sury.org+1")).toBe("upstream");
    expect(packageBuild("dpkg", "20.20.2-1nodesource1+repack1")).toBe("upstream");
    expect(packageBuild("dpkg", "7.0.2")).toBe("upstream");
    expect(packageBuild("rpm", "8.0.35-1")).toBe("upstream");
  });

  it("reads rpm names and versions (%{VERSION}-%{RELEASE})", () => {
    expect(identifyPackage("rpm", "openssl-libs", "3.0.7-27.el9")).toEqual({
      product: "openssl",
      version: "3.0.7",
      build: "distribution",
    });
    expect(identifyPackage("rpm", "postgresql16-server", "16.2-1PGDG.rhel9")).toEqual({
      product: "postgresql",
      version: "16.2",
      build: "upstream",
    });
    // dpkg names are not rpm names.
    expect(identifyPackage("rpm", "openssh-server", "8.7p1-38.el9")?.product).toBe("openssh");
    expect(identifyPackage("rpm", "libssl3", "3.0.7-27.el9")).toBeNull();
  });

  it("never throws on hostile input", () => {
    expect(identifyPackage("dpkg", "openssl", "x".repeat(10_000))).toBeNull();
    expect(identifyPackage("dpkg", "openssl", "")).toBeNull();
    expect(identifyPackage("dpkg", undefined as unknown as string, "1")).toBeNull();
  });
});
