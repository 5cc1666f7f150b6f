import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runHcsServer } from "../test-support/hcs-server-cli.js";

const dataDir = mkdtempSync(join(tmpdir(), "hcs-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const hcs = (args: string[], env: Record<string, string> = {}) => runHcsServer(dataDir, args, env);

describe("hcs-server operator CLI", () => {
  let accountId = "";
  let keyId = "";

  it("creates an account and prints its webhook secret", async () => {
    const r = await hcs([
      "--json",
      "accounts",
      "create",
      "--name",
      "Sunrise Family Practice",
      "--plan",
      "professional",
      "--credits",
      "5000",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      name: "Sunrise Family Practice",
      plan: "professional",
      tier: "standard",
      credits: 5000,
    });
    expect(out.webhook_secret).toMatch(/^whsec_/);
    accountId = out.id;
  });

  it("issues a key once and revokes it", async () => {
    const created = await hcs(["--json", "keys", "create", "--account", accountId, "--label", "EHR"]);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key.api_key).toMatch(/^hcs_live_/);
    keyId = key.key_id;
    const listed = await hcs(["--json", "keys", "list", "--account", accountId]);
    expect(listed.stdout).not.toContain(key.api_key);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: keyId, label: "EHR", revoked_at: null })]);
    const revoked = await hcs(["keys", "revoke", keyId]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/revoked_at\s+20\d\d-/);
  });

  it("adds practices, refusing bad NPIs with a clear message and exit code 1", async () => {
    const ok = await hcs([
      "practices",
      "add",
      "--npi",
      "1234567893",
      "--name",
      "Sunrise",
      "--domain",
      "sunrise-clinic.example",
      "--website",
      "https://www.sunrise-clinic.example/",
      "--account",
      accountId,
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("sunrise-clinic.example");
    const bad = await hcs([
      "practices",
      "add",
      "--npi",
      "1234567890",
      "--name",
      "X",
      "--domain",
      "x.example",
      "--account",
      accountId,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe("error (invalid_npi): npi: npi must be 10 digits with a valid check digit");
  });

  it("usage errors exit 2 with help; a bad environment exits 2 naming the variable", async () => {
    const usage = await hcs(["accounts", "create", "--name", "X", "--plan", "gold"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Allowed choices are free, professional, enterprise");
    const env = await hcs(["accounts", "list"], { HCS_PORT: "http" });
    expect(env.code).toBe(2);
    expect(env.stderr.trim().split("\n")).toHaveLength(1);
    expect(env.stderr).toMatch(/^configuration error: HCS_PORT: /);
  });

  it("--help teaches: every command has a description and examples where it matters", async () => {
    const help = await hcs(["--help"]);
    expect(help.code).toBe(0);
    for (const c of ["serve", "migrate", "accounts", "keys", "practices"]) expect(help.stdout).toContain(c);
    expect(help.stdout).toContain("HCS_DATA_DIR");
    const sub = await hcs(["practices", "add", "--help"]);
    expect(sub.stdout).toContain("Example:");
  });
});
