import { execFile, execFileSync } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { decodeDeployToken } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import type { PortalClient } from "../test-support/portal-client.js";
import { invitedAndSignedIn } from "../test-support/portal-sign-in.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

// The portal's "Install the scanner" steps followed as clinic IT staff would: the commands are taken from the page
// as rendered (its <pre><code> blocks for Linux and macOS), never retyped, and run one after the other in an empty
// folder with a fresh npm prefix and home directory, against this real server over HTTPS (loopback only). Before,
// the page said `--cafile ./hcs-ca.pem` and offered no such file: npm waited 72 s and failed with
// SELF_SIGNED_CERT_IN_CHAIN.

const run = promisify(execFile);
const SERVER_DIR = join(import.meta.dirname, "..", "..");
const SCANNER_VERSION = JSON.parse(readFileSync(join(SERVER_DIR, "..", "scanner-cli", "package.json"), "utf8"))
  .version as string;
const NPI = "1234567893";

let work: string;
let t: TestServer;
let page: string;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'" };
const decode = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#39|apos|#x([0-9a-f]+)|#(\d+));/gi, (m, name: string, hex?: string, dec?: string) =>
    hex
      ? String.fromCodePoint(Number.parseInt(hex, 16))
      : dec
        ? String.fromCodePoint(Number(dec))
        : (ENTITIES[name] ?? m),
  );

/** The page's command blocks for one shell, in page order: [id, the text a person copies]. */
function commandsFor(html: string, shell: "sh" | "powershell"): [string, string][] {
  return [...html.matchAll(/<pre([^>]*)>\s*<code>([\s\S]*?)<\/code>\s*<\/pre>/g)]
    .filter(([, attrs]) => attrs!.includes(`data-shell="${shell}"`))
    .map(([, attrs, code]) => [/id="([^"]+)"/.exec(attrs!)![1]!, decode(code!)]);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "hcs-portal-install-"));
  const downloads = join(work, "downloads");
  // The build's own step (npm run build runs it into dist/scanner-package), here into a directory of the test's.
  execFileSync("node", [join(SERVER_DIR, "scripts", "pack-scanner.mjs"), downloads], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  t = await startTestServer({ env: { HCS_SCANNER_DIR: downloads } });
  const { accountId } = await accountWithKey(t.server.deps, { plan: "professional", credits: 1000 });
  await gradedPractice(t.server.deps, accountId, NPI);
  const { browser } = await invitedAndSignedIn(t, accountId, "it@sunrise.example", "manager");
  page = await issueDeployTokenPage(browser);
}, 180_000);

afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

async function issueDeployTokenPage(browser: PortalClient): Promise<string> {
  await browser.get(`/portal/practices/${NPI}/scanner`);
  const issued = await browser.post(`/portal/practices/${NPI}/scanner/deploy-token`, { max_uses: "1" });
  expect(issued.status).toBe(201);
  return issued.text;
}

describe("the portal's scanner page, followed as written", () => {
  it("gives the CA (a download link and the fingerprint the deploy token pins) beside the commands", async () => {
    const pin = createHash("sha256").update(new X509Certificate(t.ca).raw).digest("hex");
    const token = decodeDeployToken(decode(/<pre id="deploy-token"><code>([^<]+)<\/code>/.exec(page)![1]!));
    expect(token.ok && token.token.caSha256).toBe(pin);
    const colons = pin.toUpperCase().replace(/(..)(?!$)/g, "$1:");
    expect(page).toContain(`<code class="fingerprint">${colons}</code>`);
    const link = /<a href="([^"]+)" download="hcs-ca.pem">/.exec(page)![1]!;
    expect(link).toBe(`${t.url}/downloads/hcs-ca.pem`);
    const served = await t.request(new URL(link).pathname);
    expect(served.status).toBe(200);
    expect(served.text.trim()).toBe(t.ca.trim());
  });

  it("its Linux and macOS commands, pasted in order into an empty folder, install, register and scan", async () => {
    const steps = commandsFor(page, "sh");
    expect(steps.map(([id]) => id)).toEqual(["cmd-ca", "cmd-install", "cmd-register", "cmd-scan"]);
    const folder = join(work, "clinic");
    const prefix = join(work, "npm-global");
    const home = join(work, "home");
    const bin = join(work, "bin");
    for (const d of [folder, prefix, home, bin]) mkdirSync(d, { recursive: true });
    // The test runs as root: `sudo` changes nothing, and a real one would reset PATH to its secure_path.
    writeFileSync(join(bin, "sudo"), '#!/bin/sh\nexec "$@"\n');
    chmodSync(join(bin, "sudo"), 0o755);
    const env = {
      // A clinic's shell: none of the npm_config_* that `npm test` passes down, no extra CAs.
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
      HOME: home,
      PATH: `${join(prefix, "bin")}:${bin}:${process.env.PATH}`,
      NODE_EXTRA_CA_CERTS: "",
      npm_config_prefix: prefix,
      npm_config_cache: join(work, "npm-cache"),
      // npm never reaches a registry here (the package has no dependencies); any call would fail on a closed port.
      npm_config_registry: "http://127.0.0.1:9/",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      npm_config_fetch_retries: "0",
    };
    const outputs: Record<string, string> = {};
    for (const [id, command] of steps) {
      const r = await run("sh", ["-e", "-c", command], { cwd: folder, env, timeout: 300_000 }).catch(
        (err: { code?: number; stdout?: string; stderr?: string }) => {
          throw new Error(`${id} failed (${err.code}): ${command}\n${err.stdout}\n${err.stderr}`);
        },
      );
      outputs[id] = `${r.stdout}${r.stderr}`;
    }
    // 1. The CA, written from the page, is the server's; openssl prints the fingerprint the page shows.
    expect(readFileSync(join(folder, "hcs-ca.pem"), "utf8").trim()).toBe(t.ca.trim());
    const fingerprint = /<code class="fingerprint">([0-9A-F:]+)<\/code>/.exec(page)![1]!;
    expect(outputs["cmd-ca"]).toContain(`Fingerprint=${fingerprint}`);
    // 2. npm installed the package this server serves, over HTTPS, into the fresh prefix.
    expect(outputs["cmd-install"]!.trim().split("\n").at(-1)).toBe(SCANNER_VERSION);
    const installed = join(prefix, "bin", "hcs-scanner");
    expect((await run(installed, ["--version"], { env })).stdout.trim()).toBe(SCANNER_VERSION);
    expect((await run(installed, ["--help"], { env })).stdout).toMatch(/^Usage: hcs-scanner/m);
    // 3. Registered with the token the page showed, into the home directory's configuration.
    expect(outputs["cmd-register"]).toContain(`NPI ${NPI}`);
    expect(readFileSync(join(home, ".config", "hcs-scanner", "agent.json"), "utf8")).toContain(t.url);
    // 4. The scan of this computer (loopback only) reached the server: it answers with the practice's grade.
    expect(outputs["cmd-scan"]).toMatch(/^Uploaded\.$/m);
    expect(outputs["cmd-scan"]).toMatch(/^Grade \(unified\): [A-F] \(\d+\/100\)$/m);
  }, 300_000);

  it("gives Windows the same steps in PowerShell: the same CA, package, token and commands", () => {
    const sh = Object.fromEntries(commandsFor(page, "sh"));
    const ps = Object.fromEntries(commandsFor(page, "powershell"));
    expect(Object.keys(ps)).toEqual([
      "cmd-ca-powershell",
      "cmd-install-powershell",
      "cmd-register-powershell",
      "cmd-scan-powershell",
    ]);
    // A here-string's closing '@ must start its line; the PEM between is the server's.
    expect(ps["cmd-ca-powershell"]).toContain(`@'\n${t.ca.trim()}\n'@ | Set-Content -Path hcs-ca.pem -Encoding ascii`);
    expect(ps["cmd-install-powershell"]).toBe(sh["cmd-install"]);
    const token = /'(hcsdt1\.[^']+)'/.exec(sh["cmd-register"]!)![1]!;
    expect(ps["cmd-register-powershell"]).toBe(
      `Set-Content -Path hcs-deploy-token.txt -Value '${token}'\nhcs-scanner register --key-file hcs-deploy-token.txt`,
    );
    expect(ps["cmd-scan-powershell"]).toBe("hcs-scanner scan");
  });
});
