import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCAN_UPLOAD_LIMITS } from "@hcs/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { configFiles } from "../config/paths.js";
import { ServerClient, ServerRefusal } from "../transport/server-client.js";
import { listSpool, spoolUpload } from "./spool.js";
import { flushSpool, uploadOrSpool } from "./upload.js";

const CA = readFileSync(join(import.meta.dirname, "..", "host", "fixtures", "tls", "test-cert.pem"), "utf8");

/** A loopback port with nothing listening: any attempt to send would fail as "server unreachable". */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function setup() {
  const dir = mkdtempSync(join(tmpdir(), "hcs-upload-"));
  dirs.push(dir);
  const serverUrl = `https://127.0.0.1:${await closedPort()}`;
  const client = new ServerClient({ serverUrl, caPem: CA, userAgent: "test", timeoutMs: 2_000 });
  const entry = {
    agent_id: "agt_AAAAAAAAAAAAAAAA",
    scan_id: randomUUID(),
    signature: "s".repeat(86),
    body: JSON.stringify({ padding: "x".repeat(SCAN_UPLOAD_LIMITS.upload_bytes) }),
    server_url: serverUrl,
    ca_pem: CA,
  };
  return { files: configFiles(dir), client, entry };
}

describe("an upload over the byte limit is a permanent refusal, never a spool entry", () => {
  it("is refused without being sent, and not spooled", async () => {
    const { files, client, entry } = await setup();
    const refusal = await uploadOrSpool(client, files, entry, new Date()).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(ServerRefusal);
    expect(refusal).toMatchObject({
      status: 413,
      code: "payload_too_large",
      details: { limit: "upload_bytes", max: SCAN_UPLOAD_LIMITS.upload_bytes, actual: Buffer.byteLength(entry.body) },
    });
    expect(listSpool(files)).toEqual([]);
  });

  it("is moved out of the spool (with its reason) by flush instead of being retried on every run", async () => {
    const { files, client, entry } = await setup();
    spoolUpload(files, { ...entry, spooled_at: new Date().toISOString(), attempts: 1, last_error: "reset" });
    const report = await flushSpool(() => client, files);
    expect(report).toMatchObject({ sent: [], remaining: 0, rejected: [{ scan_id: entry.scan_id }] });
    expect(report.rejected[0]!.reason).toContain("payload_too_large");
    expect(listSpool(files)).toEqual([]);
    expect(existsSync(join(files.rejected, `${entry.scan_id}.json`))).toBe(true);
    expect(readFileSync(join(files.rejected, `${entry.scan_id}.json.reason.txt`), "utf8")).toContain("413");
  });
});
