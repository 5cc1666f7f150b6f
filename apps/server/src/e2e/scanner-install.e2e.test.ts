import { execFile, execFileSync } from "node:child_process";
import { createHash, X509Certificate as X509 } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { DeployTokenResponseSchema, ScannerPackageManifestSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

const run = promisify(execFile);
const SERVER_DIR = join(import.meta.dirname, "..", "..");
const SCANNER_VERSION = JSON.parse(readFileSync(join(SERVER_DIR, "..", "scanner-cli", "package.json"), "utf8"))
  .version as string;
const NPI = "1234567893";

let work: string;
let downloads: string;
let t: TestServer;
/** The hcs-scanner the last successful install put on disk. */
let lastBin = "";

// npm never reaches the registry here: the package has no dependencies, and any registry call would go to a closed
// loopback port (and fail the install) rather than to the internet.
// The environment is a clinic's shell: none of the npm_config_* that `npm test` passes down (its cafile would
// override NODE_EXTRA_CA_CERTS), no extra CAs unless the command sets them.
const npmEnv = (extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  npm_config_registry: "http://127.0.0.1:9/",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
  // A refused certificate fails at once instead of after npm's retries (a minute).
  npm_config_fetch_retries: "0",
  NODE_EXTRA_CA_CERTS: "",
  ...extra,
});

/**
 * Runs an install command as given to the clinic, into a fresh prefix; the installed scanner's --version. (npm runs
 * asynchronously: the server answering it lives in this process.)
 */
async function installAndRun(command: string, env: Record<string, string> = {}) {
  const prefix = mkdtempSync(join(work, "prefix-"));
  const [npm, ...args] = command.split(" ");
  expect(npm).toBe("npm");
  try {
    // A cache of its own: each install fetches the tarball from the server (none is answered from a cache).
    await run("npm", [...args, "--prefix", prefix], {
      cwd: work,
      env: npmEnv({ npm_config_cache: join(prefix, ".npm-cache"), ...env }),
      timeout: 120_000,
    });
  } catch (err) {
    return { installed: false as const, stderr: String((err as { stderr?: string }).stderr) };
  }
  const { stdout } = await run(join(prefix, "bin", "hcs-scanner"), ["--version"]);
  lastBin = join(prefix, "bin", "hcs-scanner");
  return { installed: true as const, version: stdout.trim() };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "hcs-scanner-install-"));
  downloads = join(work, "downloads");
  // The build's own step (npm run build runs it into dist/scanner-package), here into a directory of the test's.
  execFileSync("node", [join(SERVER_DIR, "scripts", "pack-scanner.mjs"), downloads], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  t = await startTestServer({ env: { HCS_SCANNER_DIR: downloads } });
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("the server serves the scanner package it was built with", () => {
  it("at /downloads/hcs-scanner-<version>.tgz, with its SHA-256 and npm integrity in the manifest and headers", async () => {
    expect(readdirSync(downloads)).toEqual([`hcs-scanner-${SCANNER_VERSION}.tgz`]);
    const onDisk = readFileSync(join(downloads, `hcs-scanner-${SCANNER_VERSION}.tgz`));
    const sha256 = createHash("sha256").update(onDisk).digest("hex");
    const integrity = `sha512-${createHash("sha512").update(onDisk).digest("base64")}`;

    const manifest = await t.request("/downloads/hcs-scanner.json");
    expect(manifest.status).toBe(200);
    const m = ScannerPackageManifestSchema.parse(manifest.json);
    expect(m).toMatchObject({
      name: "@hcs/scanner-cli",
      version: SCANNER_VERSION,
      url: `${t.url}/downloads/hcs-scanner-${SCANNER_VERSION}.tgz`,
      size: onDisk.length,
      sha256,
      integrity,
      npm: `npm install --global ${t.url}/downloads/hcs-scanner-${SCANNER_VERSION}.tgz --cafile ./hcs-ca.pem`,
    });

    const tarball = await fetchBytes(`/downloads/hcs-scanner-${SCANNER_VERSION}.tgz`);
    expect(tarball.status).toBe(200);
    expect(createHash("sha256").update(tarball.body).digest("hex")).toBe(sha256);
    expect(tarball.headers["content-type"]).toBe("application/octet-stream");
    expect(tarball.headers["repr-digest"]).toContain(`sha-256=:${Buffer.from(sha256, "hex").toString("base64")}:`);
    expect(tarball.headers["repr-digest"]).toContain(`sha-512=:${integrity.slice("sha512-".length)}:`);

    const other = await t.request("/downloads/hcs-scanner-9.9.9.tgz");
    expect([other.status, other.json.error.code]).toEqual([404, "not_found"]);
    const ca = await t.request("/downloads/hcs-ca.pem");
    expect(ca.status).toBe(200);
    expect(ca.text).toBe(t.ca.endsWith("\n") ? t.ca : `${t.ca}\n`);
    expect(m.ca_sha256).toBe(createHash("sha256").update(new X509(ca.text).raw).digest("hex"));
  });

  it("the deploy response's install command installs it from this server over HTTPS (npm --cafile); NODE_EXTRA_CA_CERTS works too; without the CA npm refuses", async () => {
    const owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 1000 });
    await gradedPractice(t.server.deps, owner.accountId, NPI);
    const res = await t.request(`/v1/a2a/network/deploy/${NPI}`, {
      method: "POST",
      headers: { "X-API-Key": owner.apiKey },
    });
    expect(res.status, res.text).toBe(201);
    const deploy = DeployTokenResponseSchema.parse(res.json);
    const url = `${t.url}/downloads/hcs-scanner-${SCANNER_VERSION}.tgz`;
    expect(deploy.install.npm).toBe(`npm install --global ${url} --cafile ./hcs-ca.pem`);
    expect(deploy.install.package?.url).toBe(url);
    // The clinic saves the CA next to the command; its fingerprint is the token's pin.
    writeFileSync(join(work, "hcs-ca.pem"), deploy.install.ca_pem!);
    expect(createHash("sha256").update(new X509(deploy.install.ca_pem!).raw).digest("hex")).toBe(deploy.ca_sha256);

    expect(await installAndRun(deploy.install.npm)).toEqual({ installed: true, version: SCANNER_VERSION });
    // … and, as the README goes on, registers with the deploy token (saved to a file) against this server.
    writeFileSync(join(work, "hcs-deploy-token.txt"), deploy.deploy_token);
    const registered = await run(
      lastBin,
      [...deploy.install.register.split(" ").slice(1), "--config-dir", join(work, "scanner-config"), "--json"],
      { cwd: work, env: npmEnv(), timeout: 60_000 },
    );
    expect(JSON.parse(registered.stdout)).toMatchObject({ npi: NPI });
    expect(
      await installAndRun(`npm install --global ${url}`, { NODE_EXTRA_CA_CERTS: join(work, "hcs-ca.pem") }),
    ).toEqual({
      installed: true,
      version: SCANNER_VERSION,
    });
    const untrusted = await installAndRun(`npm install --global ${url}`);
    expect(untrusted.installed).toBe(false);
    expect(untrusted.installed ? "" : untrusted.stderr).toMatch(/certificate|SELF_SIGNED|UNABLE_TO_VERIFY/i);
  }, 240_000);
});

describe("a server built without the scanner package", () => {
  it("says so at /downloads/ and points the deploy response at the npm registry", async () => {
    const bare = await startTestServer({ env: { HCS_SCANNER_DIR: join(work, "empty") } });
    try {
      const manifest = await bare.request("/downloads/hcs-scanner.json");
      expect([manifest.status, manifest.json.error.code]).toEqual([404, "not_found"]);
      const tarball = await bare.request(`/downloads/hcs-scanner-${SCANNER_VERSION}.tgz`);
      expect(tarball.status).toBe(404);
      const owner = await accountWithKey(bare.server.deps, { plan: "professional", tier: "bulk", credits: 1000 });
      await gradedPractice(bare.server.deps, owner.accountId, NPI);
      const res = await bare.request(`/v1/a2a/network/deploy/${NPI}`, {
        method: "POST",
        headers: { "X-API-Key": owner.apiKey },
      });
      const deploy = DeployTokenResponseSchema.parse(res.json);
      expect(deploy.install.npm).toBe("npm install --global @hcs/scanner-cli");
      expect(deploy.install.package).toBeUndefined();
    } finally {
      await bare.close();
    }
  });
});

async function fetchBytes(path: string) {
  const { request } = await import("node:https");
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    request(`${t.url}${path}`, { ca: t.ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }),
      );
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}
