import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { loadConfig } from "../config.js";
import { httpRequestTo, type RequestOptions, type TestResponse } from "../lab/https-client.js";
import { createLogger } from "../logger.js";
import { type RunningServer, startServer } from "../server.js";
import { ensureSelfManagedTls } from "../tls/tls-material.js";
import { copyMigratedSqlite, createMigratedTestDatabase } from "./migrated-template.js";

export interface TestServer {
  readonly url: string;
  readonly ca: string;
  readonly server: RunningServer;
  readonly dataDir: string;
  /** Every log line the server wrote (JSON), for assertions such as "no key was logged". */
  readonly logs: string[];
  /** The bootstrap operator key (Professional plan, bulk tier); empty on a data dir bootstrapped before. */
  readonly operatorKey: string;
  request(path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

let tlsTemplate: string | null = null;

// Generating a CA per test server costs ~0.5 s; every test server copies one pre-made CA instead.
function tlsTemplateDir(): string {
  if (!tlsTemplate || !existsSync(tlsTemplate)) {
    tlsTemplate = mkdtempSync(join(tmpdir(), "hcs-tls-template-"));
    ensureSelfManagedTls(tlsTemplate, ["localhost", "127.0.0.1", "::1"]);
  }
  return tlsTemplate;
}

export interface TestServerOptions {
  readonly engine?: "sqlite" | "postgres";
  readonly env?: Record<string, string>;
  /** Fixed or scripted clock for the server's own notion of time. */
  readonly now?: () => Date;
  /** Run the job worker in the server (default false: most tests do not need it). */
  readonly worker?: boolean;
}

/** Starts a real server (HTTPS on 127.0.0.1, port 0) on a temporary data dir and SQLite or a fresh PG schema. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "hcs-test-"));
  cpSync(join(tlsTemplateDir(), "tls"), join(dataDir, "tls"), { recursive: true });
  let dropDatabase: (() => Promise<void>) | null = null;
  const env: Record<string, string> = {
    HCS_DATA_DIR: dataDir,
    HCS_PORT: "0",
    HCS_LOG_LEVEL: "info",
    ...options.env,
  };
  // A migrated database copied from a template (test-support/migrated-template.ts), unless the test brings its own.
  if (options.engine === "postgres" && !options.env?.DATABASE_URL) {
    const database = await createMigratedTestDatabase();
    dropDatabase = database.drop;
    env.DATABASE_URL = database.url;
  } else if (options.engine !== "postgres" && !options.env?.HCS_DATA_DIR && !options.env?.DATABASE_URL) {
    await copyMigratedSqlite(dataDir);
  }
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(...String(chunk).split("\n").filter(Boolean));
      cb();
    },
  });
  const config = loadConfig(env, process.cwd());
  const server = await startServer(config, createLogger(config.logLevel, sink), {
    worker: options.worker ?? false,
    ...(options.now ? { now: options.now } : {}),
  });
  const ca = server.tls.caPem;
  return {
    url: server.url,
    ca,
    server,
    dataDir,
    logs,
    // Empty when the data dir was already bootstrapped (a test restarting on the same data).
    operatorKey: server.bootstrap?.apiKey ?? "",
    request: (path, o = {}) => httpRequestTo(`${server.url}${path}`, { ca, ...o }),
    async close() {
      await server.close();
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
