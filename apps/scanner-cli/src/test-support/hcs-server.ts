import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/**
 * The Node that runs the test server: the one running the tests, unless HCS_TEST_SERVER_NODE names another. CI runs
 * the scanner's tests under the current LTS Node as well, while the server (whose SQLite driver is a native module
 * built for the installed Node) keeps the Node it was installed with.
 */
const SERVER_NODE = process.env.HCS_TEST_SERVER_NODE || process.execPath;

const SERVER_BIN = join(import.meta.dirname, "..", "..", "..", "server", "src", "bin.ts");
const run = promisify(execFile);

/** A free TCP port on 127.0.0.1 (so a restarted server can come back on the same address). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/**
 * A real HCS server for the scanner's end-to-end tests: `hcs-server serve` in its own process (through tsx) on a
 * temporary data directory, driven only through its CLI and its HTTPS API, as an operator would.
 */
export class HcsServerProcess {
  private child: ChildProcess | null = null;
  readonly dataDir = mkdtempSync(join(tmpdir(), "hcs-e2e-server-"));
  operatorKey = "";
  accountId = "";
  url = "";

  private constructor(readonly port: number) {}

  static async start(): Promise<HcsServerProcess> {
    const s = new HcsServerProcess(await freePort());
    await s.up();
    return s;
  }

  get env(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HCS_DATA_DIR: this.dataDir,
      HCS_PORT: String(this.port),
      HCS_LOG_LEVEL: "warn",
    };
  }

  get caPem(): string {
    return readFileSync(join(this.dataDir, "tls", "ca.crt"), "utf8");
  }

  /** Starts (or restarts) the server process on the same port and data directory. */
  async up(): Promise<void> {
    const child = spawn(SERVER_NODE, ["--import", "tsx", SERVER_BIN, "serve", "--no-worker"], {
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    let out = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`hcs-server did not start:\n${out}`)), 60_000);
      const onData = (d: Buffer) => {
        out += d.toString();
        const listening = /listening on (https:\/\/\S+)/.exec(out);
        if (listening && (this.operatorKey || /Next steps:/.test(out) || !/First start/.test(out))) {
          const key = /(hcs_live_[0-9A-Za-z_]+)/.exec(out);
          const account = /operator account (acct_[0-9A-Za-z]+)/.exec(out);
          if (key) this.operatorKey = key[1]!;
          if (account) this.accountId = account[1]!;
          this.url = listening[1]!;
          if (this.operatorKey) {
            clearTimeout(timer);
            resolve();
          }
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.on("exit", (code) => reject(new Error(`hcs-server exited (${code}):\n${out}`)));
    });
  }

  /** Stops the process (the data stays). */
  async down(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise((r) => {
      child.once("exit", r);
      child.kill("SIGTERM");
    });
  }

  async cli(args: string[]): Promise<string> {
    const { stdout } = await run(SERVER_NODE, ["--import", "tsx", SERVER_BIN, ...args], {
      env: this.env,
      timeout: 60_000,
    });
    return stdout;
  }

  async addPractice(npi: string, name = `Practice ${npi}`): Promise<void> {
    await this.cli([
      "practices",
      "add",
      "--npi",
      npi,
      "--name",
      name,
      "--domain",
      `p${npi}.example`,
      "--account",
      this.accountId,
    ]);
  }

  /** POST to the API with the operator key; returns status and JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes
  api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        `${this.url}${path}`,
        {
          method,
          ca: this.caPem,
          headers: {
            "X-API-Key": this.operatorKey,
            ...(payload ? { "Content-Type": "application/json", "Content-Length": String(payload.length) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined });
          });
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  async deployToken(npi: string, options?: { expires_in_hours?: number; max_uses?: number }): Promise<string> {
    const res = await this.api("POST", `/v1/a2a/network/deploy/${npi}`, options);
    if (res.status !== 201) throw new Error(`deploy token: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.deploy_token as string;
  }

  async stop(): Promise<void> {
    await this.down();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
