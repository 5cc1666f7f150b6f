import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScanner } from "../test-support/run-scanner.js";

// How the CLI fails, as a person or a script meets it: one line and a hint for a usage error, a JSON error object on
// stdout under --json, examples in every command's help, and 130 after Ctrl-C.

const dir = mkdtempSync(join(tmpdir(), "hcs-scanner-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("hcs-scanner errors", () => {
  it("answers a usage error with one line and a hint, not the whole help (exit 2)", async () => {
    const r = await runScanner(["scan", "--bogus"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([
      "error: unknown option '--bogus'",
      "(see `hcs-scanner --help`, or `hcs-scanner <command> --help`)",
    ]);
    expect(r.stdout).toBe("");
  });

  it("under --json, writes every error as a JSON object on stdout too", async () => {
    const usage = await runScanner(["scan", "--bogus", "--json"]);
    expect([usage.code, JSON.parse(usage.stdout)]).toEqual([
      2,
      { error: { code: "usage", message: "unknown option '--bogus'" } },
    ]);
    const noToken = await runScanner(["register", "--json", "--config-dir", join(dir, "a")]);
    expect(noToken.code).toBe(2);
    expect(JSON.parse(noToken.stdout)).toEqual({ error: { code: "token_missing", message: expect.any(String) } });
    expect(noToken.stderr).toMatch(/^hcs-scanner: /);
  });

  it("shows examples in every command's help, and the phases' default time budget", async () => {
    for (const command of ["register", "scan", "one-shot", "phases", "status", "flush"]) {
      const r = await runScanner([command, "--help"]);
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toMatch(/\nExamples?( \(CI[^)]*\))?:\n/);
    }
    expect((await runScanner(["scan", "--help"])).stdout).toMatch(
      /--timeout <seconds>\s+time budget of each phase \(default:/,
    );
  });

  it("prints a --no-upload scan's result even when the configuration directory cannot be written", async () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const r = await runScanner(
      ["scan", "--no-upload", "--phases", "disk_encryption", "--json", "--config-dir", join(file, "cfg")],
      { env: { HOME: dir } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).scan_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toMatch(/warning: could not save the last scan at .*a-file\/cfg\/last-scan\.json \(ENOTDIR\)/);
  }, 60_000);

  it("prints the findings as a table, most severe first with a fix, and warns of an --ephi-paths that does not exist", async () => {
    const out = join(dir, "scan.json");
    const missing = join(dir, "no-such-share");
    const r = await runScanner(
      [
        "scan",
        "--no-upload",
        "--phases",
        "disk_encryption,access_control,ephi_flow",
        "--ephi-paths",
        missing,
        "--out",
        out,
        "--config-dir",
        join(dir, "c"),
      ],
      // Wide enough that no title wraps (scan-output.e2e.test.ts checks the wrapping).
      { env: { HOME: dir, COLUMNS: "400" } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: --ephi-paths ${missing} does not exist: it is not scanned`);
    const doc = JSON.parse(readFileSync(out, "utf8")) as {
      phases: { findings: { severity: string; title: string }[] }[];
    };
    const listed = doc.phases.flatMap((p) => p.findings).filter((f) => f.severity !== "info");
    if (listed.length === 0) expect(r.stdout).toMatch(/No findings/);
    else {
      expect(r.stdout).toMatch(/^SEVERITY\s+FINDING\s+HOST\s+FIX$/m);
      for (const f of listed) expect(r.stdout).toContain(f.title.slice(0, 40));
    }
  }, 60_000);

  it("says which path a file error is about and what to do, as text and under --json", async () => {
    const file = join(dir, "not-a-dir");
    writeFileSync(file, "");
    const r = await runScanner(
      [
        "scan",
        "--no-upload",
        "--phases",
        "disk_encryption",
        "--json",
        "--out",
        join(file, "scan.json"),
        "--config-dir",
        join(dir, "d"),
      ],
      { env: { HOME: dir } },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^hcs-scanner: cannot use .*not-a-dir \((EEXIST|ENOTDIR)\): part of the path is a file/m);
    expect(JSON.parse(r.stdout.trim().split("\n").at(-1)!)).toMatchObject({ error: { code: "file_error" } });
  }, 60_000);

  it("exits 130 when interrupted, after stopping the scan cleanly", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(import.meta.dirname, "..", "bin.ts"),
        "scan",
        "--no-upload",
        "--targets",
        "127.0.0.1",
        "--config-dir",
        join(dir, "b"),
      ],
      { env: { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      // Interrupt once the scan has started (its first phase has reported).
      if (!child.killed) child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toMatch(/SIGINT: stopping the scan/);
    expect(code).toBe(130);
  }, 60_000);
});
