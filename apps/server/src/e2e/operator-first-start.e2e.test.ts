import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequestTo } from "../lab/https-client.js";
import { documentedCommand, REPO_ROOT, repoDoc } from "../test-support/doc-commands.js";
import { type DocumentedProcess, personEnv, runDocumentedCommand } from "../test-support/documented-process.js";
import { withRepoBuildLock } from "../test-support/repo-build-lock.js";

// The server operator's journey, as README and the first start's banner tell it: `npm start` in the clone (taken from
// README's quick start), with the data directory and port of their choosing — a relative HCS_DATA_DIR and a port that
// is not 8443, the two settings that used to trip the operator commands — then every "next step" the banner prints,
// pasted as it stands into a new shell that has none of the server's environment (only the key placeholder filled
// in). What the operator looks for: the server answers, the practice is added to the server's store, and the
// invitation link leads to this server's portal page.

const run = promisify(execFile);
const README = repoDoc("README.md");
const results = join(REPO_ROOT, ".test-results");
mkdirSync(results, { recursive: true });
const work = mkdtempSync(join(results, "operator-journey-"));
const dataDirArg = join(relative(REPO_ROOT, work), "data");
const dataDir = join(REPO_ROOT, dataDirArg);

let server: DocumentedProcess;
let port: number;
let banner: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port: p } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return p;
}

beforeAll(async () => {
  port = await freePort();
  const start = documentedCommand(README, "npm start");
  expect(start).toBe("npm start");
  server = runDocumentedCommand(
    start,
    REPO_ROOT,
    personEnv({ HCS_DATA_DIR: dataDirArg, HCS_PORT: String(port), HCS_LOG_LEVEL: "warn" }),
  );
  // npm start builds first: no other test may build the same dist/ meanwhile.
  await withRepoBuildLock(() => server.waitFor(/More: docs\/operations\.md/, 600_000));
  banner = server.output().stderr;
}, 660_000);
afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The banner's next steps, one command a line. */
const nextSteps = () => {
  const block = /Next steps:\n([\s\S]*?)\nMore: docs\/operations\.md/.exec(banner)?.[1];
  if (!block) throw new Error(`no next steps in the banner:\n${banner}`);
  return block.split("\n").map((l) => l.trim());
};

/** A next step pasted into a new shell in the clone: bash, PATH and HOME only. */
async function paste(line: string) {
  const key = /^ {2}(hcs_live_\S+)$/m.exec(banner)![1]!;
  const command = line.replaceAll("<the key above>", key);
  try {
    const r = await run("bash", ["-c", command], { cwd: REPO_ROOT, env: personEnv(), timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("the server operator's first start, as README and the banner say", () => {
  it("starts on the chosen port with a new data directory (0700) where HCS_DATA_DIR leads, and says where it is", () => {
    expect(banner).toContain(`listening on https://127.0.0.1:${port} (store: sqlite:${join(dataDir, "hcs.sqlite")}`);
    expect(banner).toContain(`Data directory: ${dataDir} `);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(banner).toMatch(/CA SHA-256 fingerprint: ([0-9A-F]{2}:){31}[0-9A-F]{2}/);
    expect(banner).toMatch(
      /={78}\nFirst start: created the operator account acct_\S+ [\s\S]*\n {2}hcs_live_\S+\n\n={78}/,
    );
    // stdout is not a terminal here: it carries only the JSON log, never the key.
    expect(server.output().stdout).not.toContain("hcs_live_");
  });

  it("every next step works pasted into a shell without the server's environment", async () => {
    const steps = nextSteps();
    expect(steps.length).toBeGreaterThanOrEqual(6);
    const answers: { step: string; code: number; stdout: string; stderr: string }[] = [];
    for (const step of steps) {
      const r = await paste(step);
      expect(r.code, `${step}\n${r.stdout}\n${r.stderr}`).toBe(0);
      answers.push({ step, ...r });
    }
    const of = (s: string) => answers.find((a) => a.step.includes(s))!;
    expect(JSON.parse(of("/healthz").stdout)).toEqual({ status: "ok" });
    const card = of("agent-card.json").stdout;
    expect(JSON.parse(card).name).toBeTruthy();
    expect(card).toContain(`https://127.0.0.1:${port}/`);
    // The practice went into the server's store, said so, and the API (with the key) sees it.
    const added = of("practices add");
    expect(added.stdout).toContain("sunrise-clinic.example");
    expect(added.stderr).toContain(`store: sqlite:${join(dataDir, "hcs.sqlite")}`);
    const practice = JSON.parse(of("/v1/practice?npi=").stdout);
    expect(practice.npi ?? practice.practice?.npi, of("/v1/practice?npi=").stdout).toBe("1234567893");
    expect(JSON.parse(of("/v1/a2a/grade/").stdout).error?.code).not.toBe("unauthorized");
    // The invitation link points at this server (not 8443) and its page answers.
    const link = /link\s+(https:\/\/\S+)/.exec(of("users invite").stdout)?.[1];
    expect(link?.startsWith(`https://127.0.0.1:${port}/portal/invite?token=`), of("users invite").stdout).toBe(true);
    const ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
    const page = await httpRequestTo(link!, { ca });
    expect(page.status).toBe(200);
    expect(page.text).toContain("you@sunrise-clinic.example");
  }, 180_000);
});
