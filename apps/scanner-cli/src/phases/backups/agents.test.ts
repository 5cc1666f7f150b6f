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
});
