import { describe, expect, it } from "vitest";
import { runCommand } from "./exec.js";

describe.runIf(process.platform !== "win32")("runCommand (POSIX)", () => {
  it("returns output and exit code, in the C locale", async () => {
    const r = await runCommand("sh", ["-c", 'printf "%s" "$LC_ALL"; exit 3']);
    expect(r).toMatchObject({ stdout: "C", exitCode: 3, ok: false, notFound: false, timedOut: false });
  });

  it("reports a missing executable as notFound instead of throwing", async () => {
    const r = await runCommand("hcs-no-such-tool-here", ["--version"]);
    expect(r.notFound).toBe(true);
    expect(r.ok).toBe(false);
  });

  it("kills a command past its timeout and says so", async () => {
    const started = performance.now();
    const r = await runCommand("sleep", ["10"], { timeoutMs: 200 });
    expect(r.timedOut).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("stops at the output cap and flags the truncation", async () => {
    const r = await runCommand("sh", ["-c", "head -c 100000 /dev/zero"], { maxOutputBytes: 1000 });
    expect(r.outputTruncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(1000);
  });

  it("is cancelled by an AbortSignal", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const r = await runCommand("sleep", ["10"], { signal: controller.signal });
    expect(r.ok).toBe(false);
  });
});
