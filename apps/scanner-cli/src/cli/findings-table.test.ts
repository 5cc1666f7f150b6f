import { describe, expect, it } from "vitest";
import { findingsTable } from "./findings-table.js";
import { terminalWidth, wrapLine, wrapText } from "./terminal-width.js";

const LONG_FIX =
  "Install and run an anti-malware product: the practice's EDR agent, or ClamAV (apt install clamav-daemon clamav-freshclam; systemctl enable --now clamav-daemon clamav-freshclam) scanning downloads, shares and mail.";

const findings = [
  {
    severity: "medium" as const,
    title: "SSH allows password login",
    host: "10.0.0.5",
    remediation: "Set PasswordAuthentication no. Then restart sshd.",
  },
  { severity: "info" as const, title: "Inventory collected", remediation: "Nothing to do." },
  {
    severity: "critical" as const,
    title: "Disk not encrypted",
    remediation: "Turn on BitLocker or LUKS for every disk holding ePHI.",
  },
  { severity: "high" as const, title: "Telnet open", host: "printer.clinic.lan", remediation: "Disable telnet." },
];

describe("findingsTable", () => {
  it("lists the most severe first, each with its host and its whole fix; counts information-only ones", () => {
    expect(findingsTable(findings, 120)).toEqual([
      "SEVERITY  FINDING                    HOST                FIX",
      "CRITICAL  Disk not encrypted         this host           Turn on BitLocker or LUKS for every disk holding ePHI.",
      "HIGH      Telnet open                printer.clinic.lan  Disable telnet.",
      "MEDIUM    SSH allows password login  10.0.0.5            Set PasswordAuthentication no. Then restart sshd.",
      "(and 1 for information: --json or --out lists them)",
    ]);
  });

  it("says so when there is nothing to list", () => {
    expect(findingsTable([])).toEqual(["No findings."]);
    expect(findingsTable([{ severity: "info", title: "x", remediation: "y" }])).toEqual([
      "No findings above information (1 for information: --json or --out).",
    ]);
  });

  it.each([60, 80, 100, 120])("fits %i columns by wrapping cells, and cuts nothing", (width) => {
    const long = [
      ...findings,
      {
        severity: "medium" as const,
        title: "No anti-malware or EDR product was found on this machine, nor any process of a known agent",
        host: "frontdesk-01.clinic.example.internal",
        remediation: LONG_FIX,
      },
    ];
    const lines = findingsTable(long, width);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
    expect(lines.join("\n")).not.toContain("…");
    // Read back column by column, each row gives its whole title, host and fix.
    const starts = ["FINDING", "HOST", "FIX"].map((h) => lines[0]!.indexOf(h));
    const rows: string[][] = [];
    for (const line of lines.slice(1)) {
      if (line === "" || line.startsWith("(")) continue;
      if (line[0] !== " ") rows.push(["", "", ""]);
      const row = rows.at(-1)!;
      starts.forEach((at, i) => {
        row[i] = `${row[i]} ${line.slice(at, starts[i + 1] ?? line.length).trim()}`.trim();
      });
    }
    const listed = long.filter((f) => f.severity !== "info");
    expect(rows).toHaveLength(listed.length);
    // (A word longer than its column is broken across lines: compared without spaces, nothing is missing.)
    const bare = (cells: string[]) => cells.map((c) => c.replace(/\s/g, ""));
    const readBack = rows.map(bare);
    for (const f of listed) expect(readBack).toContainEqual(bare([f.title, f.host ?? "this host", f.remediation]));
    if (width >= 80) expect(rows.map((r) => r[2])).toContain(LONG_FIX);
  });
});

describe("terminalWidth", () => {
  it("takes COLUMNS first, then the terminal's width, else 80 — also for a terminal that reports 0 or a tiny width", () => {
    expect(terminalWidth({ isTTY: true, columns: 120, env: {} })).toEqual({ width: 120, reported: true });
    expect(terminalWidth({ isTTY: true, columns: 120, env: { COLUMNS: "100" } })).toEqual({
      width: 100,
      reported: true,
    });
    expect(terminalWidth({ isTTY: true, columns: 0, env: {} })).toEqual({ width: 80, reported: false });
    expect(terminalWidth({ isTTY: true, columns: 12, env: {} })).toEqual({ width: 80, reported: false });
    expect(terminalWidth({ isTTY: true, columns: undefined, env: {} })).toEqual({ width: 80, reported: false });
    expect(terminalWidth({ isTTY: false, columns: undefined, env: {} })).toEqual({ width: 80, reported: false });
    expect(terminalWidth({ isTTY: false, columns: undefined, env: { COLUMNS: "132" } })).toEqual({
      width: 132,
      reported: false,
    });
    for (const COLUMNS of ["0", "5", "wide", "-1", "1e3"])
      expect(terminalWidth({ isTTY: false, columns: undefined, env: { COLUMNS } }).width).toBe(80);
  });
});

describe("wrapText and wrapLine", () => {
  it("wrap at word boundaries, break only a word longer than the line, and keep every character", () => {
    expect(wrapText("one two three four", 9)).toEqual(["one two", "three", "four"]);
    expect(wrapText("x".repeat(25), 10)).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
    expect(wrapText("", 10)).toEqual([""]);
    expect(wrapLine("  backups: last backup: could not be read: timeshift needs root", 30)).toEqual([
      "  backups: last backup: could",
      "    not be read: timeshift",
      "    needs root",
    ]);
  });
});
