import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditLogKeys } from "../audit/log-keys.js";
import { auditProofFor } from "../audit/proofs.js";
import { openStore, type Store } from "../store/store.js";
import { alterAuditEvent, buildCheckpointedLog } from "../test-support/audit-events.js";
import { sharedTestLogKey } from "../test-support/audit-log-keys.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import { createTestSchema, shouldRunPostgres, urlWithSchema } from "../test-support/postgres.js";

// The verify commands as an operator and an auditor run them: the real hcs-server process, its output and exit code.

const dataDir = mkdtempSync(join(tmpdir(), "hcs-audit-cli-"));
// One key for the SQLite and the PostgreSQL log below (each imports it, as a server imports a legacy key file).
const keyDir = sharedTestLogKey().dataDir;
let store: Store;
let key: AuditLogKeys;
beforeAll(async () => {
  store = openStore({ engine: "sqlite", file: join(dataDir, "hcs.sqlite") });
  key = await buildCheckpointedLog(store, keyDir);
});
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const hcs = (args: string[], env: Record<string, string> = {}) => runHcsServer(dataDir, args, env);

describe("hcs-server audit verify", () => {
  it("verifies an untouched log with the log's own first key (exit 0), and with the published verifier key", async () => {
    const r = await hcs(["--json", "audit", "verify"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, leaves: 45, checkpoints: 2, first_bad_index: null });
    const keyFile = join(dataDir, "published-key.txt");
    writeFileSync(keyFile, `${key.verifierKey}\n`);
    const r2 = await hcs(["audit", "verify", "--verifier-key", `@${keyFile}`]);
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stdout).toMatch(/verified\s+true/);
  });

  it("lists the log's keys (audit keys): one, signing from size 0, trusted", async () => {
    const r = await hcs(["--json", "audit", "keys"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({ epoch: 0, verifier_key: key.verifierKey, signs_from_size: 0, trusted: true }),
    ]);
  });

  it("refuses a key that is not a verifier key (exit 2)", async () => {
    const r = await hcs(["audit", "verify", "--verifier-key", "not-a-key"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a C2SP verifier key/);
  });

  it("names the first altered event and exits 3", async () => {
    const bundle = await auditProofFor({ store, auditLogKey: key }, 8, "acc_1");
    const at7 = await store.db.selectFrom("audit_entries").select("id").where("leaf_index", "=", 7).executeTakeFirst();
    const restore = await alterAuditEvent(store, Number(at7!.id), { status: 500 });
    try {
      const r = await hcs(["--json", "audit", "verify"]);
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stdout)).toMatchObject({ verified: false, first_bad_index: 7, problem: "altered" });
    } finally {
      await restore();
    }
    // The bundle made before the change still verifies offline: it holds the record as it was logged.
    const file = join(dataDir, "proof-8.json");
    writeFileSync(file, JSON.stringify(bundle));
    expect((await hcs(["audit", "verify-proof", file])).code).toBe(0);
  });
});

describe("hcs-server audit verify-proof", () => {
  let file = "";
  let keyFile = "";
  beforeAll(async () => {
    const bundle = await auditProofFor({ store, auditLogKey: key }, 12, "acc_1");
    file = join(dataDir, "proof-12.json");
    writeFileSync(file, JSON.stringify(bundle, null, 2));
    keyFile = join(dataDir, "key.txt");
    writeFileSync(keyFile, key.verifierKey);
  });

  it("verifies a bundle against the trusted key (exit 0), and warns when only the bundle's own key was used", async () => {
    const trusted = await hcs(["--json", "audit", "verify-proof", file, "--verifier-key", `@${keyFile}`]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(JSON.parse(trusted.stdout)).toMatchObject({
      verified: true,
      leaf_index: 11,
      tree_size: 40,
      key_trusted: true,
    });
    expect(trusted.stderr).toBe("");
    const own = await hcs(["audit", "verify-proof", file]);
    expect(own.code).toBe(0);
    expect(own.stderr).toMatch(/bundle's own verifier key/);
  });

  it("fails a tampered bundle with exit 3 and the check that failed; an unreadable file is exit 1", async () => {
    const bundle = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(file, "utf8")));
    bundle.event.record.outcome = "denied";
    const forged = join(dataDir, "forged.json");
    writeFileSync(forged, JSON.stringify(bundle));
    const r = await hcs(["--json", "audit", "verify-proof", forged, "--verifier-key", `@${keyFile}`]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: false, failed_check: "leaf_hash" });

    writeFileSync(forged, "{not json");
    expect((await hcs(["audit", "verify-proof", forged])).code).toBe(3);
    const missing = await hcs(["audit", "verify-proof", join(dataDir, "nope.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*ENOENT/);
  });
});

describe.skipIf(!(await shouldRunPostgres()))("hcs-server audit verify on PostgreSQL", () => {
  it("verifies the log in a PostgreSQL store and names a reordered pair's first index", async () => {
    const test = await createTestSchema();
    const { schema, drop } = test;
    const pg = openStore({ engine: "postgres", url: test.url, schema });
    try {
      await buildCheckpointedLog(pg, keyDir);
      const env = { DATABASE_URL: urlWithSchema(test) };
      const ok = await hcs(["--json", "audit", "verify"], env);
      expect(ok.code, ok.stderr).toBe(0);
      // The events at leaves 4 and 5 swap the marks the sequencer gave them.
      await sql`update audit_events set leaf_index = -1 where leaf_index = 4`.execute(pg.db);
      await sql`update audit_events set leaf_index = 4 where leaf_index = 5`.execute(pg.db);
      await sql`update audit_events set leaf_index = 5 where leaf_index = -1`.execute(pg.db);
      const bad = await hcs(["--json", "audit", "verify"], env);
      expect(bad.code).toBe(3);
      expect(JSON.parse(bad.stdout)).toMatchObject({ first_bad_index: 4, problem: "moved" });
    } finally {
      await pg.close();
      await drop();
    }
  });
});
