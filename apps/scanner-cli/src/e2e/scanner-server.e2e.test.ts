import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeDeployToken, encodeDeployToken, ScanResultDocumentSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HcsServerProcess } from "../test-support/hcs-server.js";
import { runScanner } from "../test-support/run-scanner.js";

const NPI = "1234567893";
let server: HcsServerProcess;
let work: string;
const configDir = () => join(work, "scanner");
// Fast phases only, loopback only: what these tests check is enrolment, upload, spool and exit codes.
const FAST = ["--phases", "disk_encryption,access_control", "--config-dir"];

beforeAll(async () => {
  server = await HcsServerProcess.start();
  await server.addPractice(NPI, "Sunrise Family Practice");
  work = mkdtempSync(join(tmpdir(), "hcs-e2e-scanner-"));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("hcs-scanner against a real hcs-server", () => {
  it("registers from a token file, keeps the private key 0600, and refuses to re-register silently", async () => {
    const tokenFile = join(work, "token.txt");
    writeFileSync(tokenFile, await server.deployToken(NPI));
    const r = await runScanner(["register", "--key-file", tokenFile, "--config-dir", configDir()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`NPI ${NPI}`);
    expect(statSync(join(configDir(), "agent-ed25519.pem")).mode & 0o777).toBe(0o600);
    const again = await runScanner(["register", "--key-file", tokenFile, "--config-dir", configDir()]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already registered");
  });

  it("checks the arguments before the saved state: a bad, missing or doubled token is named as such", async () => {
    const dir = configDir(); // registered by the test above
    const garbage = await runScanner(["register", "--key", "nonsense", "--config-dir", dir]);
    expect([garbage.code, garbage.stderr]).toEqual([2, expect.stringContaining("is not an HCS deploy token")]);
    const none = await runScanner(["register", "--config-dir", dir]);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining("a deploy token is needed")]);
    const missing = await runScanner(["register", "--key-file", join(work, "no-such-file"), "--config-dir", dir]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining("cannot read the deploy token file")]);
    const both = await runScanner(["register", "--key", "x", "--key-file", "y", "--config-dir", dir]);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining("not both")]);
  });

  it("retries a registration that reached the server but could not be saved: same key, same agent, one use", async () => {
    const tokenFile = join(work, "token-3.txt");
    writeFileSync(tokenFile, await server.deployToken(NPI));
    const dir = join(work, "retry");
    // The identity cannot be saved (a directory stands where its key goes) after the server has registered it.
    mkdirSync(join(dir, "agent-ed25519.pem", "blocker"), { recursive: true });
    const first = await runScanner(["register", "--key-file", tokenFile, "--config-dir", dir]);
    expect(first.code).toBe(1);
    const agentId = /registered as (agt_\w+), but could not save it/.exec(first.stderr)?.[1];
    expect(agentId, first.stderr).toBeDefined();
    expect(existsSync(join(dir, "pending-ed25519.pem"))).toBe(true);
    rmSync(join(dir, "agent-ed25519.pem"), { recursive: true });
    const again = await runScanner(["register", "--key-file", tokenFile, "--config-dir", dir, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).agent_id).toBe(agentId);
    expect(existsSync(join(dir, "pending-ed25519.pem"))).toBe(false);
    const agents = await server.api("GET", `/v1/a2a/network/agents/${NPI}`);
    expect(agents.json.agents.filter((a: { agent_id: string }) => a.agent_id === agentId)).toHaveLength(1);
  });

  it("refuses an unwritable configuration directory before spending the token, which then still registers", async () => {
    const tokenFile = join(work, "token-2.txt");
    writeFileSync(tokenFile, await server.deployToken(NPI));
    // A directory under a file: ENOTDIR whoever runs the test (root ignores permission bits).
    const blocked = join(tokenFile, "cfg");
    const r = await runScanner(["register", "--key-file", tokenFile, "--config-dir", blocked]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot write the scanner's configuration at .*token-2\.txt.*\(ENOTDIR\).*not used/);
    const ok = await runScanner(["register", "--key-file", tokenFile, "--config-dir", join(work, "second")]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it("scans, uploads and prints the grade; --json is machine-readable; --fail-under sets exit 3 exactly when below", async () => {
    const r = await runScanner(["scan", ...FAST, configDir(), "--json", "--fail-under", "A"]);
    const out = JSON.parse(r.stdout);
    expect(out.upload).toEqual({ status: "uploaded", duplicate: false });
    expect(out.grade.npi).toBe(NPI);
    // The chosen phases, plus the ones they depend on, in protocol order.
    const ids = out.phases.map((p: { id: string }) => p.id);
    expect(ids).toContain("disk_encryption");
    expect(ids).toContain("access_control");
    expect(ids.length).toBeLessThan(12);
    expect(r.code).toBe(out.grade.grade === "A" ? 0 : 3);
    expect(out.exit_code).toBe(r.code);
    const human = await runScanner(["scan", ...FAST, configDir()]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/Grade \(unified\): [A-F] \(\d+\/100\)/);
    expect(human.stderr).toMatch(/Disk encryption: (ok|unsupported|FAILED)/);
  }, 120_000);

  it("spools when the server is down (exit 4), shows it in status, and flush sends it once", async () => {
    await server.down();
    const r = await runScanner(["scan", ...FAST, configDir(), "--out", join(work, "spooled-scan.json")]);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).toContain("hcs-scanner flush");
    const status = JSON.parse((await runScanner(["status", "--json", "--config-dir", configDir()])).stdout);
    expect(status.spooled_uploads).toHaveLength(1);
    const scanId = status.spooled_uploads[0].scan_id;
    expect(status.last_scan).toMatchObject({ scan_id: scanId, upload: "spooled" });
    expect(JSON.parse(readFileSync(join(work, "spooled-scan.json"), "utf8")).scan_id).toBe(scanId);
    const stillDown = await runScanner(["flush", "--config-dir", configDir()]);
    expect(stillDown.code).toBe(4);

    await server.up();
    const spoolFile = join(configDir(), "spool", `${scanId}.json`);
    const copy = join(work, "spool-copy.json");
    cpSync(spoolFile, copy);
    const flushed = await runScanner(["flush", "--json", "--config-dir", configDir()]);
    expect(flushed.code, flushed.stderr).toBe(0);
    expect(JSON.parse(flushed.stdout)).toMatchObject({ sent: [{ scan_id: scanId, duplicate: false }], remaining: 0 });
    expect(existsSync(spoolFile)).toBe(false);
    // The same upload arriving again is answered as a duplicate and stored once.
    cpSync(copy, spoolFile);
    const twice = await runScanner(["flush", "--json", "--config-dir", configDir()]);
    expect(JSON.parse(twice.stdout).sent).toEqual([expect.objectContaining({ scan_id: scanId, duplicate: true })]);
    const after = JSON.parse((await runScanner(["status", "--json", "--config-dir", configDir()])).stdout);
    expect(after.spooled_uploads).toEqual([]);
    // The last scan says it was sent, not still spooled.
    expect(after.last_scan).toMatchObject({ scan_id: scanId, upload: "uploaded" });
  }, 180_000);

  it("never puts ePHI content in the upload: fake SSNs and MRNs are counted, not copied", async () => {
    const phi = join(work, "phi");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(phi, { recursive: true });
    const ssns = ["219-09-9999", "078-05-1120", "457-55-5462"];
    const mrns = ["MRN: 00482913", "MRN 55120987"];
    writeFileSync(
      join(phi, "intake-export.csv"),
      `name,ssn,dob\nJane Roe,${ssns[0]},1971-03-04\nJohn Doe,${ssns[1]},1980-11-30\n`,
    );
    writeFileSync(join(phi, "notes.txt"), `Patient ${mrns[0]} seen today. ${mrns[1]}. SSN ${ssns[2]}.\n`);
    const out = join(work, "phi-scan.json");
    const r = await runScanner([
      "scan",
      "--phases",
      "ephi_flow",
      "--ephi-paths",
      phi,
      "--config-dir",
      configDir(),
      "--out",
      out,
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, "utf8");
    const doc = ScanResultDocumentSchema.parse(JSON.parse(text));
    const phase = doc.phases.find((p) => p.id === "ephi_flow")!;
    expect(phase.status).toBe("ok");
    expect(JSON.stringify(phase.facts)).toContain("intake-export.csv");
    for (const value of [
      ...ssns,
      ...mrns,
      ...ssns.map((s) => s.replace(/-/g, "")),
      "00482913",
      "55120987",
      "Jane Roe",
      "John Doe",
      "1971-03-04",
    ]) {
      expect(text.includes(value), value).toBe(false);
      expect(r.stdout.includes(value), value).toBe(false);
    }
  }, 120_000);

  it("reads the token from stdin with --key -, and warns when it is given on the command line", async () => {
    const token = await server.deployToken(NPI);
    const viaStdin = await runScanner(["register", "--key", "-", "--config-dir", join(work, "stdin-reg")], {
      stdin: `${token}\n`,
    });
    expect(viaStdin.code, viaStdin.stderr).toBe(0);
    expect(viaStdin.stderr).not.toContain("shell history");
    const token2 = await server.deployToken(NPI);
    const viaArg = await runScanner(["register", "--key", token2, "--config-dir", join(work, "arg-reg")]);
    expect(viaArg.code).toBe(0);
    expect(viaArg.stderr).toContain("shell history");
  }, 60_000);

  it("explains bad tokens: malformed and damaged (exit 2), used up and foreign (exit 1)", async () => {
    const dir = join(work, "bad");
    const malformed = await runScanner(["register", "--key", "-", "--config-dir", dir], {
      stdin: "hcs_live_not_a_deploy_token",
    });
    expect([malformed.code, malformed.stderr]).toEqual([2, expect.stringContaining("is not an HCS deploy token")]);
    const good = await server.deployToken(NPI);
    const damaged = await runScanner(["register", "--key", "-", "--config-dir", dir], {
      stdin: good.slice(0, -3) + (good.endsWith("aaa") ? "bbb" : "aaa"),
    });
    expect([damaged.code, damaged.stderr]).toEqual([2, expect.stringContaining("is damaged")]);
    expect((await runScanner(["register", "--key", "-", "--config-dir", dir], { stdin: good })).code).toBe(0);
    const used = await runScanner(["register", "--force", "--key", "-", "--config-dir", dir], { stdin: good });
    expect([used.code, used.stderr]).toEqual([1, expect.stringContaining("already been used")]);
    // A token minted for another server (its pin is not what this server presents).
    const d = decodeDeployToken(good);
    if (!d.ok) throw new Error("token did not decode");
    const foreignPin = encodeDeployToken({ ...d.token, caSha256: "ab".repeat(32) });
    const foreign = await runScanner(["register", "--force", "--key", "-", "--config-dir", dir], { stdin: foreignPin });
    expect([foreign.code, foreign.stderr]).toEqual([1, expect.stringContaining("does not present the CA pinned")]);
    const nowhere = encodeDeployToken({ ...d.token, serverUrl: "https://127.0.0.1:1" });
    const unreachable = await runScanner(["register", "--force", "--key", "-", "--config-dir", dir], {
      stdin: nowhere,
    });
    expect([unreachable.code, unreachable.stderr]).toEqual([1, expect.stringContaining("cannot reach")]);
  }, 120_000);

  it("degrades without system tools: every phase still reports a status", async () => {
    const r = await runScanner(["scan", "--no-upload", "--json", "--config-dir", join(work, "bare")], {
      env: { PATH: "/nonexistent" },
    });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.phases).toHaveLength(12);
    expect(out.phases.filter((p: { status: string }) => p.status === "failed")).toEqual([]);
    expect(out.upload).toEqual({ status: "not_uploaded" });
    // Without ufw the firewall's state is unknown, and in host mode nothing else tells about the segment: it is
    // reported as not assessed, never as passed.
    expect(out.not_assessed).toContainEqual({
      phase: "segmentation",
      status: "skipped",
      reason: expect.stringContaining("the host firewall's state could not be read"),
    });

    const human = await runScanner(["scan", "--no-upload", "--config-dir", join(work, "bare")], {
      env: { PATH: "/nonexistent" },
    });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("Not assessed (unknown, not passed):");
    expect(human.stdout).toMatch(/^ {2}segmentation: skipped, the host firewall's state could not be read/m);

    // --quiet: the counts (and the local grade) only.
    const quiet = await runScanner(["scan", "--no-upload", "--quiet", "--config-dir", join(work, "bare")], {
      env: { PATH: "/nonexistent" },
    });
    expect(quiet.code, quiet.stderr).toBe(0);
    const lines = quiet.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^Scan [0-9a-f-]{36} of .+: \d+ ok, 0 failed, \d+ skipped, \d+ unsupported$/);
    expect(lines[1]).toMatch(/^Findings: \d+ critical, \d+ high, \d+ medium, \d+ low, \d+ info$/);
    expect(lines.slice(2).every((l) => l.startsWith("Grade (this host): "))).toBe(true);
    expect(lines.length).toBeLessThanOrEqual(3);
  }, 180_000);
});

describe("one-shot (CI)", () => {
  it("registers an ephemeral identity, scans, uploads, prints the grade and saves neither identity nor result", async () => {
    const token = await server.deployToken(NPI);
    const dir = join(work, "ci");
    const r = await runScanner(["one-shot", ...FAST, dir, "--json"], { env: { HCS_DEPLOY_TOKEN: token } });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.upload.status).toBe("uploaded");
    expect(out.grade.npi).toBe(NPI);
    expect(existsSync(join(dir, "agent.json"))).toBe(false);
    expect(existsSync(join(dir, "agent-ed25519.pem"))).toBe(false);
    // Nor its result: a registered agent's `status` in the same directory never shows a one-shot's scan.
    expect(existsSync(dir) ? readdirSync(dir) : []).not.toContain("last-scan.json");
    expect(out.scan_id).toMatch(/^[0-9a-f-]{36}$/);
    const status = await runScanner(["status", "--config-dir", dir, "--json"]);
    expect(status.stdout, status.stderr).not.toContain(out.scan_id);
  }, 120_000);

  it("is listed as a one-shot run, grouped by machine with the other runs, never as an installed scanner", async () => {
    const before = (await server.api("GET", `/v1/a2a/network/agents/${NPI}`)).json;
    const dir = join(work, "ci-twice");
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await runScanner(["one-shot", ...FAST, dir], {
        env: { HCS_DEPLOY_TOKEN: await server.deployToken(NPI) },
      });
      expect(r.code, r.stderr).toBe(0);
      ids.push(/registered one-shot identity (agt_\w+)/.exec(r.stderr)![1]!);
    }
    const after = (await server.api("GET", `/v1/a2a/network/agents/${NPI}`)).json as {
      agents: { agent_id: string }[];
      one_shot: {
        hostname: string;
        runs: number;
        active: number;
        active_agents: { agent_id: string; ephemeral: boolean; expires_at: string | null }[];
      }[];
    };
    // The installed scanners are the same as before the runs.
    expect(after.agents.map((a) => a.agent_id)).toEqual(before.agents.map((a: { agent_id: string }) => a.agent_id));
    const group = after.one_shot.find((g) => g.active_agents.some((a) => a.agent_id === ids[0]))!;
    expect(group.active_agents.map((a) => a.agent_id)).toEqual(expect.arrayContaining(ids));
    expect(group.runs).toBeGreaterThanOrEqual(3); // the test above's run on this machine too
    expect(group.active_agents.every((a) => a.ephemeral && a.expires_at !== null)).toBe(true);
  }, 180_000);
});
