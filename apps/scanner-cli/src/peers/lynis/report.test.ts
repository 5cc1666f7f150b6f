import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseLynisReport } from "./report.js";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");

describe("Lynis report", () => {
  const report = parseLynisReport(fixture("debian12-quick-report.dat"));

  it("reads the run: Lynis 3.0.8 on Debian 12, its start and end", () => {
    expect(report.version).toBe("3.0.8");
    expect(report.os).toEqual({ name: "Debian", version: "12" });
    expect([report.startedAt, report.endedAt]).toEqual(["2026-11-24 08:28:24", "2026-11-24 08:29:41"]);
  });

  it("reads every warning and suggestion line of the captured report, in order", () => {
    expect(report.items.filter((i) => i.kind === "warning").map((i) => i.test)).toEqual([
      "PKGS-7390",
      "PKGS-7392",
      "LOGG-2138",
    ]);
    expect(report.items.filter((i) => i.kind === "suggestion")).toHaveLength(47);
    expect(report.items[1]).toEqual({
      kind: "suggestion",
      test: "DEB-0280",
      text: "Install libpam-tmpdir to set $TMP and $TMPDIR for PAM sessions",
      details: null,
      solution: null,
    });
    expect(report.items.find((i) => i.test === "DBS-1884")).toMatchObject({
      details: "/etc/redis/redis.conf",
      solution: "text:configure 'requirepass' setting in /etc/redis/redis.conf",
    });
    // One test raises several items that differ by text.
    expect(report.items.filter((i) => i.test === "NETW-3200").map((i) => i.text)).toHaveLength(4);
  });

  it("reads which tests ran and which were skipped", () => {
    expect(report.testsExecuted.has("AUTH-9262")).toBe(true);
    expect(report.testsExecuted.has("TIME-3104")).toBe(true);
    expect(report.testsSkipped.has("SSH-7408")).toBe(true);
    expect(report.testsExecuted.has("SSH-7408")).toBe(false);
  });

  it("leaves out malformed items and lines it does not use", () => {
    const r = parseLynisReport(
      [
        "# comment",
        "warning[]=not-an-id|text|-|-|",
        "suggestion[]=AUTH-9262||-|-|",
        "suggestion[]=FILE-6310|Place /tmp apart|-|-|",
        "vulnerable_package[]=openssl",
        "garbage",
      ].join("\n"),
    );
    expect(r.items.map((i) => i.test)).toEqual(["FILE-6310"]);
    expect(r.version).toBeNull();
    expect(r.testsExecuted.size).toBe(0);
  });
});
