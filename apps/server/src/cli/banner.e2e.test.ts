import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { httpRequestTo } from "../lab/https-client.js";
import { startServerProcess } from "../test-support/server-process.js";

const dataDir = mkdtempSync(join(tmpdir(), "hcs-banner-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the first-start banner of hcs-server serve", () => {
  it("with stdout redirected (a log file), prints the operator key on stderr only, framed, never into the JSON log", async () => {
    const { proc, match } = await startServerProcess(
      ["serve", "--no-worker"],
      { HCS_DATA_DIR: dataDir, HCS_PORT: "0", HCS_LOG_LEVEL: "info" },
      /listening on (https:\/\/\S+)[\s\S]*More: docs\/operations\.md/,
    );
    try {
      const url = match[1]!;
      const key = /^ {2}(hcs_live_\S+)$/m.exec(proc.output().stderr)?.[1];
      expect(key).toBeDefined();
      // A request makes the server write a log line to stdout.
      const ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
      expect(
        (await httpRequestTo(`${url}/v1/a2a/grade/1234567893`, { ca, headers: { "X-API-Key": key! } })).status,
      ).toBe(404);
      await new Promise((r) => setTimeout(r, 200));
      const { stdout, stderr } = proc.output();
      const logLines = stdout.split("\n").filter(Boolean);
      expect(logLines.length).toBeGreaterThan(0);
      for (const line of logLines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(stdout).not.toContain("hcs_live_");
      expect(stderr.split(key!)).toHaveLength(2);
      expect(stderr).toMatch(/={78}\nFirst start: [\s\S]*\n {2}hcs_live_\S+\n\n={78}/);
      expect(stderr).toMatch(/listening on \S+ \(store: [^)]*\)/);
    } finally {
      await proc.stop();
    }
  }, 60_000);
});
