import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  homeDirectoriesFinding,
  loginAccounts,
  type PathMode,
  SENSITIVE_PATHS,
  sensitivePathsFinding,
} from "./path-permissions.js";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");

/** `stat -c '%a %n'` lines (captured on this Debian 12 machine) as the reader's stat results. */
function statModes(text: string): PathMode[] {
  return text
    .trim()
    .split("\n")
    .map((l) => /^([0-7]{3,4}) (.+)$/.exec(l)!)
    .map((m) => ({ path: m[2]!, mode: Number.parseInt(m[1]!, 8) }));
}

describe("login accounts of /etc/passwd", () => {
  it("keeps accounts with a login shell and a home of their own (root, cloudsdk, postgres on this machine)", () => {
    expect(loginAccounts(fixture("linux-passwd.txt"))).toEqual([
      { name: "root", uid: 0, home: "/root" },
      { name: "cloudsdk", uid: 1000, home: "/home/cloudsdk" },
      { name: "postgres", uid: 101, home: "/var/lib/postgresql" },
    ]);
  });
});

describe("home directories", () => {
  const accounts = loginAccounts(fixture("linux-passwd.txt"));
  const modes = statModes(fixture("linux-stat-sensitive-paths.txt"));

  it("names each home other accounts may enter (755 here), not root's 700", () => {
    const f = homeDirectoriesFinding(accounts, modes)!;
    expect([f.id, f.severity, f.controls]).toEqual(["access_control.home_directories_open", "low", ["164.312(a)(1)"]]);
    expect(f.evidence).toEqual({
      homes: [
        { account: "cloudsdk", home: "/home/cloudsdk", mode: "755" },
        { account: "postgres", home: "/var/lib/postgresql", mode: "755" },
      ],
    });
    expect(f.title).toBe("2 home directories are open to every account on this machine");
  });

  it("750 and 700 pass; a group-writable home does not; a missing home is not judged", () => {
    const at = (mode: number | null) => [{ path: "/home/cloudsdk", mode }];
    const one = [{ name: "cloudsdk", uid: 1000, home: "/home/cloudsdk" }];
    expect(homeDirectoriesFinding(one, at(0o750))).toBeNull();
    expect(homeDirectoriesFinding(one, at(0o700))).toBeNull();
    expect(homeDirectoriesFinding(one, at(null))).toBeNull();
    expect(homeDirectoriesFinding(one, at(0o770))?.title).toBe(
      "The home directory of cloudsdk is open to every account on this machine",
    );
  });
});

describe("sensitive system paths", () => {
  it("this machine: Debian's 755 cron directories are readable by every account (low); shadow 640 and root 700 pass", () => {
    const f = sensitivePathsFinding(statModes(fixture("linux-stat-sensitive-paths.txt")))!;
    expect([f.id, f.severity]).toEqual(["access_control.sensitive_path_permissions", "low"]);
    expect((f.evidence!.paths as { path: string }[]).map((p) => p.path)).toEqual([
      "/etc/cron.d",
      "/etc/cron.daily",
      "/etc/cron.weekly",
    ]);
    expect(f.title).toBe("3 sensitive system paths are readable by every account");
  });

  it("a path writable by others is medium; stricter modes raise nothing", () => {
    const f = sensitivePathsFinding([{ path: "/etc/cron.d", mode: 0o777 }])!;
    expect(f.severity).toBe("medium");
    expect(f.evidence?.paths).toEqual([
      { path: "/etc/cron.d", mode: "777", holds: "root's scheduled jobs", open_to: "write" },
    ]);
    const strict = SENSITIVE_PATHS.map((p) => ({ path: p.path, mode: p.path.includes("shadow") ? 0o640 : 0o700 }));
    expect(sensitivePathsFinding(strict)).toBeNull();
    expect(sensitivePathsFinding([{ path: "/etc/shadow", mode: 0o644 }])?.severity).toBe("low");
  });
});
