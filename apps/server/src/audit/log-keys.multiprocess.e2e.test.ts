import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequestTo } from "../lab/https-client.js";
import { createSecretBox } from "../secrets/master-key.js";
import { openStore, type Store } from "../store/store.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import {
  createTestSchema,
  shouldRunPostgres,
  TEST_PG_URL,
  type TestSchema,
  urlWithSchema,
} from "../test-support/postgres.js";
import { type ServerProcess, startServerProcess } from "../test-support/server-process.js";
import { generateLogKeyPem, logKeyFromPem } from "./log-key.js";

const runPg = await shouldRunPostgres();
const NPI = "1234567893";

interface Instance {
  proc: ServerProcess;
  url: string;
  ca: string;
  dataDir: string;
}

/**
 * Two `hcs-server serve` instances as docs/operations.md#several-instances sets them up: one PostgreSQL database and
 * one HCS_MASTER_KEY, each its own data directory (own TLS, no shared files) and its own public URL. Both sign
 * checkpoints every second; `audit verify` must pass with the one verifier key both publish — and still after one is
 * restarted under another URL and after an operator rotated the key.
 */
describe.skipIf(!runPg)("two serving processes, one audit log", () => {
  const masterKey = randomBytes(32).toString("hex");
  let schema: TestSchema;
  let store: Store;
  let apiKey = "";
  const instances: Instance[] = [];
  const cliDir = mkdtempSync(join(tmpdir(), "hcs-auditor-"));
  const env = (dataDir: string, publicUrl: string) => ({
    HCS_DATA_DIR: dataDir,
    HCS_PORT: "0",
    HCS_LOG_LEVEL: "info",
    HCS_PUBLIC_URL: publicUrl,
    HCS_MASTER_KEY: masterKey,
    HCS_CHECKPOINT_INTERVAL_S: "1",
    DATABASE_URL: urlWithSchema(schema),
  });
  async function serve(publicUrl: string, dataDir = mkdtempSync(join(tmpdir(), "hcs-instance-"))): Promise<Instance> {
    const { proc, match } = await startServerProcess(
      ["serve", "--no-worker"],
      env(dataDir, publicUrl),
      /listening on (https:\/\/\S+)/,
    );
    return { proc, url: match[1]!, ca: readFileSync(join(dataDir, "tls", "ca.crt"), "utf8"), dataDir };
  }
  const get = (i: Instance, path: string) =>
    httpRequestTo(`${i.url}${path}`, { ca: i.ca, headers: { "X-API-Key": apiKey } });
  /**
   * Audited calls through both instances, spread over time, until each instance has signed another checkpoint (the
   * first to tick after the log grew signs it; the other finds that size signed).
   */
  async function traffic() {
    const before = signedBy();
    const deadline = Date.now() + 30_000;
    for (let k = 0; Date.now() < deadline && signedBy().some((count, i) => count <= before[i]!); k++) {
      expect((await get(instances[k % 2]!, `/v1/a2a/grade/${NPI}`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  /** How many checkpoints each instance says it signed. */
  const signedBy = () => instances.map((i) => i.proc.output().stdout.split("audit checkpoint signed").length - 1);
  const verify = (key: string) =>
    runHcsServer(cliDir, ["--json", "audit", "verify", "--verifier-key", key], {
      DATABASE_URL: urlWithSchema(schema),
    });

  beforeAll(async () => {
    schema = await createTestSchema();
    instances.push(await serve("https://hcs-a.example:8443"));
    instances.push(await serve("https://hcs-b.example:9443"));
    store = openStore({ engine: "postgres", url: TEST_PG_URL, schema: schema.schema });
    const deps = { store, now: () => new Date(), secrets: createSecretBox(Buffer.from(masterKey, "hex")) };
    const account = await accountWithKey(deps, { credits: 10_000, tier: "bulk" });
    apiKey = account.apiKey;
    await gradedPractice(deps, account.accountId, NPI);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.proc.stop()));
    await store?.close();
    await schema?.drop();
    for (const i of instances) rmSync(i.dataDir, { recursive: true, force: true });
    rmSync(cliDir, { recursive: true, force: true });
  });

  it("both publish one verifier key, both sign, and the log verifies with that key", async () => {
    const [a, b] = await Promise.all(instances.map((i) => get(i, "/.well-known/hcs-audit-log-key")));
    expect(a!.status).toBe(200);
    expect(b!.text).toBe(a!.text);
    // The log is named after the URL of the instance that created it, not after each instance's own.
    expect(a!.text).toMatch(/^hcs-[ab]\.example:[89]443\/audit\+/);
    await traffic();
    expect(
      signedBy().every((n) => n >= 1),
      `checkpoints signed per instance: ${signedBy()}`,
    ).toBe(true);
    const r = await verify(a!.text.trim());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, keys: 1, rotations: 0 });
    expect(JSON.parse(r.stdout).checkpoints).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it("refuses to start a worker or a server whose master key is not the deployment's (exit 2)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "hcs-stranger-"));
    try {
      for (const command of ["worker", "serve"]) {
        const r = await runHcsServer(dataDir, [command], {
          ...env(dataDir, "https://hcs-a.example:8443"),
          HCS_MASTER_KEY: randomBytes(32).toString("hex"),
        });
        expect(r.code, `${command}: ${r.stdout}${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(/configuration error: this process's master key .* does not open the audit log's key/);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("still verifies after an instance restarts under another public URL, and after a key rotation", async () => {
    const oldKey = (await get(instances[0]!, "/.well-known/hcs-audit-log-key")).text.trim();
    const first = instances.shift()!;
    await first.proc.stop();
    instances.unshift(await serve("https://hcs.example.org", first.dataDir));
    expect((await get(instances[0]!, "/.well-known/hcs-audit-log-key")).text.trim()).toBe(oldKey);
    await traffic();

    const rotated = await runHcsServer(cliDir, ["--json", "audit", "rotate-key"], {
      DATABASE_URL: urlWithSchema(schema),
      HCS_MASTER_KEY: masterKey,
    });
    expect(rotated.code, rotated.stderr).toBe(0);
    const rotation = JSON.parse(rotated.stdout);
    expect(rotation).toMatchObject({ epoch: 1, previous_verifier_key: oldKey });
    // Both running instances sign with the new key from their next checkpoint on.
    await traffic();
    const epochs = await store.db
      .selectFrom("audit_checkpoints")
      .select("key_epoch")
      .where("size", ">", rotation.signs_from_size)
      .execute();
    expect(epochs.length).toBeGreaterThan(0);
    expect(new Set(epochs.map((e) => e.key_epoch))).toEqual(new Set([1]));
    for (const key of [oldKey, rotation.verifier_key]) {
      const r = await verify(key);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, keys: 2, rotations: 1 });
    }
    // An auditor holding a key the log never had verifies nothing.
    const stranger = await verify(logKeyFromPem(generateLogKeyPem(), oldKey.split("+")[0]!, 0).verifierKey);
    expect(stranger.code).toBe(3);
    expect(JSON.parse(stranger.stdout)).toMatchObject({ verified: false, problem: "checkpoint_signature" });
  }, 90_000);
});
