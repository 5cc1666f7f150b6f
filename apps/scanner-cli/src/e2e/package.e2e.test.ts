import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HcsServerProcess } from "../test-support/hcs-server.js";
import { runScanner } from "../test-support/run-scanner.js";

const PKG_DIR = join(import.meta.dirname, "..", "..");
const version = JSON.parse(readFileSync(join(PKG_DIR, "package.json"), "utf8")).version as string;
let work: string;
let tarball: string;
let installedBin: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "hcs-pack-"));
  // npm pack runs prepack, which bundles dist/bin.js.
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", work], {
    cwd: PKG_DIR,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const info = JSON.parse(out.slice(out.indexOf("[")))[0] as { filename: string; files: { path: string }[] };
  tarball = join(work, info.filename);
  const prefix = join(work, "prefix");
  mkdirSync(prefix);
  // An empty prefix, no registry: the tarball must carry everything it needs.
  execFileSync("npm", ["install", "--global", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", tarball], {
    cwd: work,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_registry: "http://127.0.0.1:9/" },
  });
  installedBin = join(prefix, "bin", "hcs-scanner");
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the npm package", () => {
  it("ships the bundle, its licences and the README, and no sources, tests or native modules", () => {
    const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean);
    expect(listing.sort()).toEqual([
      "package/README.md",
      "package/bin/hcs-scanner.js",
      "package/dist/THIRD_PARTY_LICENSES.txt",
      "package/dist/bin.js",
      "package/dist/probe-helper.js",
      "package/package.json",
    ]);
    const pkg = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
    expect(pkg.dependencies ?? {}).toEqual({});
    const installed = join(work, "prefix", "lib", "node_modules", "@hcs", "scanner-cli");
    const files = readdirSync(installed, { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith(".node"))).toEqual([]);
  });

  it("passes npm publish --dry-run (offline: nothing is sent), with the same six files", () => {
    const out = execFileSync(
      "npm",
      ["publish", "--dry-run", "--json", "--offline", "--registry", "http://127.0.0.1:9/"],
      {
        cwd: PKG_DIR,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    // stdout: prepack's one line, then the JSON report keyed by package name.
    const report = JSON.parse(out.slice(out.indexOf("{")))["@hcs/scanner-cli"] as { files: { path: string }[] };
    expect(report.files.map((f) => f.path).sort()).toEqual([
      "README.md",
      "bin/hcs-scanner.js",
      "dist/THIRD_PARTY_LICENSES.txt",
      "dist/bin.js",
      "dist/probe-helper.js",
      "package.json",
    ]);
  }, 120_000);

  it("installs into an empty prefix offline and runs with plain node", async () => {
    expect(existsSync(installedBin)).toBe(true);
    const r = await runScanner(["--version"], { bin: [installedBin] });
    expect([r.code, r.stdout.trim()]).toEqual([0, version]);
    const phases = await runScanner(["phases", "--json"], { bin: [installedBin] });
    expect(JSON.parse(phases.stdout)).toHaveLength(12);
  });

  it("scans a /24 of loopback with its probe helper, printing no deprecation warning even when asked to", async () => {
    // 254 hosts: enough probes in flight that the scanner hands some to its helper (dist/probe-helper.js). The
    // flags make any use of a deprecated API print a warning and throw (process.binding is one: DEP0111).
    const out = join(work, "ports-scan.json");
    const r = await runScanner(
      [
        "scan",
        "--no-upload",
        "--phases",
        "ports",
        "--targets",
        "127.0.9.0/24",
        "--verbose",
        "--quiet",
        "--out",
        out,
        "--config-dir",
        join(work, "cfg-ports"),
      ],
      { bin: [installedBin], env: { NODE_OPTIONS: "--pending-deprecation --throw-deprecation" } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/Deprecation|DEP0/);
    const helperProbes = Number(/TCP probes: \d+ in this process, (\d+) in the probe helper$/m.exec(r.stderr)?.[1]);
    expect(helperProbes, r.stderr).toBeGreaterThan(0);
    const doc = JSON.parse(readFileSync(out, "utf8")) as {
      phases: { id: string; status: string; facts: Record<string, number> }[];
    };
    const ports = doc.phases.find((p) => p.id === "ports")!;
    expect(ports.status).toBe("ok");
    // Nothing listens there: every probe, the helper's included, was answered as a refusal.
    expect(ports.facts.closed).toBe(ports.facts.probes);
  }, 120_000);

  it("runs a one-shot against a test server", async () => {
    const server = await HcsServerProcess.start();
    try {
      await server.addPractice("1245319599", "Lakeside Pediatrics");
      const token = await server.deployToken("1245319599");
      const r = await runScanner(
        ["one-shot", "--phases", "disk_encryption,backups", "--json", "--config-dir", join(work, "cfg")],
        {
          bin: [installedBin],
          env: { HCS_DEPLOY_TOKEN: token },
        },
      );
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.upload.status).toBe("uploaded");
      expect(out.grade).toMatchObject({ npi: "1245319599", practice_name: "Lakeside Pediatrics" });
    } finally {
      await server.stop();
    }
  }, 120_000);
});
