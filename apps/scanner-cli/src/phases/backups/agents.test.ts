import { describe, expect, it } from "vitest";
import { backupAgents } from "./agents.js";

describe("backupAgents", () => {
  it("recognises backup products by package and process name", () => {
    expect(backupAgents(["restic", "borgbackup", "bacula-fd", "veeamservice", "bash", "libbacula"])).toEqual([
      "bacula",
      "borg",
      "restic",
      "veeam",
    ]);
    expect(backupAgents(["openssh-server", "postgresql-15"])).toEqual([]);
  });

  it("recognises the names Windows and macOS installers register, and not look-alikes", () => {
    expect(
      backupAgents([
        "Veeam Agent for Microsoft Windows",
        "Acronis Cyber Protect Home Office",
        "Backblaze",
        "Carbon Copy Cloner",
        "Macrium Reflect Free",
        "Arq",
      ]),
    ).toEqual(["acronis", "arq", "backblaze", "carbon_copy_cloner", "macrium", "veeam"]);
    expect(
      backupAgents(["Check MK Agent 2.1", "Arquivo", "Microsoft OneDrive", "Carbonite Safe Server Backup"]),
    ).toEqual(["carbonite"]);
  });
});
