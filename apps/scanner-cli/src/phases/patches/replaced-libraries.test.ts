import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { linuxReplacedLibraries } from "./linux-replaced-libraries.js";
import { parseNeedrestartBatch, replacedMappings } from "./replaced-libraries.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("replaced libraries", () => {
  it("finds the replaced libsystemd in redis-server's maps on this machine", () => {
    expect(replacedMappings(fixture("linux-proc-maps-redis-replaced.txt"))).toEqual([
      "/usr/lib/x86_64-linux-gnu/libsystemd.so.0.35.0",
    ]);
  });

  it("leaves out shared memory and /dev/zero mappings (PostgreSQL's) and a process with nothing replaced", () => {
    const postgres = fixture("linux-proc-maps-postgres-replaced.txt");
    expect(postgres).toMatch(/\/SYSV[0-9a-f]{8} \(deleted\)/);
    expect(postgres).toMatch(/\/dev\/zero \(deleted\)/);
    expect(replacedMappings(postgres)).toEqual(["/usr/lib/x86_64-linux-gnu/libsystemd.so.0.35.0"]);
    expect(replacedMappings(fixture("linux-proc-maps-current.txt"))).toEqual([]);
  });

  it("reads needrestart's batch report: services and kernel state", () => {
    expect(parseNeedrestartBatch(fixture("linux-needrestart-b-services.txt"))).toEqual({
      services: ["systemd-journald.service", "systemd-machined.service"],
      kernelStatus: 1,
    });
    expect(parseNeedrestartBatch(fixture("linux-needrestart-b.txt"))).toEqual({ services: [], kernelStatus: 0 });
    expect(parseNeedrestartBatch("needrestart: command not found")).toBeNull();
  });

  it("as root, counts processes by their maps and names them, never the paths", async () => {
    const host = createFakeHost({
      platform: "linux",
      isPrivileged: true,
      sysinfo: {
        processes: [
          { pid: 2210, name: "redis-server", command: "", user: "redis" },
          { pid: 2190, name: "postgres", command: "", user: "postgres" },
          { pid: 4000, name: "bash", command: "", user: "root" },
        ],
      },
      files: {
        "/proc/2210/maps": fixture("linux-proc-maps-redis-replaced.txt"),
        "/proc/2190/maps": fixture("linux-proc-maps-postgres-replaced.txt"),
        "/proc/4000/maps": fixture("linux-proc-maps-current.txt"),
      },
    });
    const state = await linuxReplacedLibraries(host);
    expect(state.findings).toHaveLength(1);
    expect(state.findings[0]).toMatchObject({
      id: "patches.services_on_replaced_libraries",
      severity: "medium",
      evidence: { process_count: 2, processes: ["postgres", "redis-server"], source: "proc_maps" },
    });
    expect(JSON.stringify(state.findings[0])).not.toMatch(/libsystemd/);
  });

  it("without root: needrestart's services, else not assessed", async () => {
    const withNr = createFakeHost({
      platform: "linux",
      isPrivileged: false,
      commands: { "needrestart -b": fixture("linux-needrestart-b-services.txt") },
    });
    const state = await linuxReplacedLibraries(withNr);
    expect(state.findings[0]?.evidence).toMatchObject({
      process_count: 2,
      services: ["systemd-journald.service", "systemd-machined.service"],
      source: "needrestart",
    });
    // Neither: not assessed, and counted as the check's finding (medium) until a scan as root makes it.
    const none = await linuxReplacedLibraries(createFakeHost({ platform: "linux", isPrivileged: false }));
    expect(none.notAssessed).toMatch(/need root/);
    expect(none.findings.map((f) => [f.id, f.severity, f.category, f.evidence])).toEqual([
      [
        "patches.not_assessed:replaced_libraries",
        "medium",
        "asset_management",
        { not_assessed: "replaced_libraries", reason: none.notAssessed, counted_as: "medium" },
      ],
    ]);
  });
});
