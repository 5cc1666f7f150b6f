import { execFile } from "node:child_process";
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SamplePractices, startSamplePractices } from "../sample-practices/start.js";
import { createExternalScanIO } from "./io/create-io.js";
import { type ExternalScanResult, runExternalScan } from "./run-external-scan.js";
import { type AgreementRow, compareWithTestssl, TestsslJsonSchema } from "./test-support/testssl-agreement.js";

/** testssl.sh on PATH, under the Debian package's name or upstream's. */
function findTestssl(): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    for (const name of ["testssl", "testssl.sh"]) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {}
    }
  }
  return null;
}

const TESTSSL = findTestssl();
if (!TESTSSL) {
  console.warn("[testssl agreement] skipped: testssl.sh is not on PATH (apt-get install testssl.sh to run it)");
}
// Its own loopback range, beside the other sample-practice test files.
const PREFIX = "127.0.63";
const run = promisify(execFile);

describe.skipIf(!TESTSSL)("agreement with testssl.sh on the sample practices", () => {
  let samples: SamplePractices;
  let dir: string;
  const rows = new Map<string, AgreementRow[]>();

  beforeAll(async () => {
    samples = await startSamplePractices({ loopbackPrefix: PREFIX });
    dir = mkdtempSync(join(tmpdir(), "hcs-testssl-"));
    const io = createExternalScanIO({ dnsServers: [samples.dns], trustedCaPem: [samples.caPem] });
    const ours = new Map<string, ExternalScanResult>();
    for (const p of samples.practices) {
      ours.set(
        p.npi,
        await runExternalScan({ domain: p.domain, website: p.website }, io, {
          allowPrivateTargets: true,
          timeoutMs: 30_000,
        }),
      );
    }
    // Both scanners see the same servers; testssl connects to the practice's loopback address only (--ip) and
    // makes no DNS query at all (--nodns none); it never phones out unless --phone-out is given.
    await Promise.all(
      samples.practices.map(async (p) => {
        const jsonFile = join(dir, `${p.npi}.json`);
        const host = new URL(p.website).hostname;
        await run(
          TESTSSL!,
          [
            "--jsonfile",
            jsonFile,
            "--warnings",
            "off",
            "--quiet",
            "--color",
            "0",
            "--ip",
            p.address,
            "--nodns",
            "none",
            "-p",
            "-E",
            "-S",
            "-s",
            `${host}:443`,
          ],
          { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
        ).catch((error: { code?: number }) => {
          // testssl exits non-zero when it finds problems; only a missing JSON file is a failure.
          if (typeof error.code !== "number") throw error;
        });
        const entries = TestsslJsonSchema.parse(JSON.parse(readFileSync(jsonFile, "utf8")));
        rows.set(p.name, compareWithTestssl(ours.get(p.npi)!, entries));
      }),
    );
  }, 300_000);
  afterAll(async () => {
    await samples?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("agrees with testssl.sh on every compared item of every practice", () => {
    const table = [...rows].flatMap(([name, r]) =>
      r.map(
        (row) =>
          `${row.agree ? "agree   " : "DISAGREE"} ${name.padEnd(28)} ${row.item.padEnd(42)} hcs=${row.hcs} testssl=${row.testssl}`,
      ),
    );
    console.log(`[testssl agreement]\n${table.join("\n")}`);
    expect(rows.size).toBe(samples.practices.length);
    const disagreements = [...rows].flatMap(([name, r]) =>
      r.filter((row) => !row.agree).map((row) => ({ name, ...row })),
    );
    expect(disagreements).toEqual([]);
  });

  it("covers each judged item with at least one practice where both sides say yes", () => {
    const yes = (item: string) =>
      [...rows.values()].some((r) => r.some((row) => row.item === item && row.hcs === "yes" && row.testssl === "yes"));
    expect(yes("suites without forward secrecy")).toBe(true);
    expect(yes("CBC-mode suites")).toBe(true);
    expect(yes("SHA-1/MD5 certificate signature")).toBe(true);
    expect(yes("no OCSP or CRL in the certificate")).toBe(true);
    expect(yes("TLS 1.0 offered")).toBe(true);
  });
});
