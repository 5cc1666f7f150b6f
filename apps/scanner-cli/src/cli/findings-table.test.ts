import { describe, expect, it } from "vitest";
import { findingsTable, oneLineFix } from "./findings-table.js";

describe("findingsTable", () => {
  it("lists the most severe first, one line each with host and a one-line fix; counts information-only ones", () => {
    const lines = findingsTable([
      {
        severity: "medium",
        title: "SSH allows password login",
        host: "10.0.0.5",
        remediation: "Set PasswordAuthentication no. Then restart sshd.",
      },
      { severity: "info", title: "Inventory collected", remediation: "Nothing to do." },
      {
        severity: "critical",
        title: "Disk not encrypted",
        remediation: "Turn on BitLocker or LUKS for every disk holding ePHI.",
      },
      {
        severity: "high",
        title: "Telnet open",
        host: "printer.clinic.lan",
        remediation: "Disable telnet on the printer.",
      },
    ]);
    expect(lines).toEqual([
      "SEVERITY  FINDING                    HOST                FIX",
      "CRITICAL  Disk not encrypted         this host           Turn on BitLocker or LUKS for every disk holding ePHI.",
      "HIGH      Telnet open                printer.clinic.lan  Disable telnet on the printer.",
      "MEDIUM    SSH allows password login  10.0.0.5            Set PasswordAuthentication no.",
      "(and 1 for information: --json or --out lists them)",
    ]);
  });

  it("says so when there is nothing to list", () => {
    expect(findingsTable([])).toEqual(["No findings."]);
    expect(findingsTable([{ severity: "info", title: "x", remediation: "y" }])).toEqual([
      "No findings above information (1 for information: --json or --out).",
    ]);
  });

  it("cuts long fixes at a word boundary with an ellipsis", () => {
    const fix = oneLineFix(`${"word ".repeat(30)}end.`, 20);
    expect(fix.length).toBeLessThanOrEqual(20);
    expect(fix.endsWith("…")).toBe(true);
  });
});
