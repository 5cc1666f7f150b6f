import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moduleWatch, packagesOf } from "../../test-support/loaded-modules.js";
import { type ServerProcess, startServerProcess } from "../../test-support/server-process.js";

/** GET over HTTPS, trusting the server's own CA: status and content type. */
function get(url: string, ca: string): Promise<{ status: number; type: string }> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]) }));
    })
      .on("error", reject)
      .end();
  });
}

// The portal's packages a deployment serving only the API never runs (docs/performance.md#memory).
const PORTAL_PACKAGES = ["preact", "preact-render-to-string", "hono", "otpauth"];
const isPortalRouter = (url: string) => /\/portal\/web\/portal-router\.(tsx|js)$/.test(url);

describe("hcs-server serve loads the portal on its first request", () => {
  const watch = moduleWatch();
  const dataDir = mkdtempSync(join(tmpdir(), "hcs-lazy-portal-"));
  let proc: ServerProcess;
  let url: string;

  beforeAll(async () => {
    const started = await startServerProcess(
      ["serve", "--no-worker"],
      { HCS_DATA_DIR: dataDir, HCS_PORT: "0", HCS_LOG_LEVEL: "warn", NODE_OPTIONS: watch.nodeOptions },
      /listening on (https:\/\/\S+)/,
    );
    proc = started.proc;
    url = started.match[1]!;
  }, 60_000);
  afterAll(async () => {
    await proc?.stop();
    watch.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the API without the portal's modules, then the portal's first page with them", async () => {
    const ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
    expect((await get(`${url}/healthz`, ca)).status).toBe(200);
    const before = watch.loaded();
    // The observation works: the server's own modules and packages are seen.
    expect(packagesOf(before)).toContain("koa");
    expect(before.some((u) => /\/(src\/app\.ts|dist\/app\.js)$/.test(u))).toBe(true);
    expect([...packagesOf(before)].filter((p) => PORTAL_PACKAGES.includes(p))).toEqual([]);
    expect(before.filter(isPortalRouter)).toEqual([]);

    const page = await get(`${url}/portal/sign-in`, ca);
    expect(page).toEqual({ status: 200, type: expect.stringMatching(/^text\/html/) });
    const after = watch.loaded();
    expect(after.filter(isPortalRouter)).toHaveLength(1);
    expect(packagesOf(after)).toContain("preact");
    // A second page reuses what the first loaded.
    expect((await get(`${url}/portal/no-such-page`, ca)).status).toBe(404);
    expect(watch.loaded().filter(isPortalRouter)).toHaveLength(1);
  }, 60_000);
});
