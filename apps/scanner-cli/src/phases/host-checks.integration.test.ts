import { spawn } from "node:child_process";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRealHost } from "../host/real-host.js";
import { linuxFileIntegrity } from "./access_control/linux-file-integrity.js";
import { linuxRemovableMedia } from "./asset_inventory/linux-removable-media.js";
import { linuxReplacedLibraries } from "./patches/linux-replaced-libraries.js";
import { judgeMalware } from "./patches/malware.js";
import { linuxMalwareReading } from "./patches/malware-readers.js";

const isRoot = process.getuid?.() === 0;

// The host checks of docs/scanner.md#where-the-remaining-host-checks-live (malware protection, services on replaced
// libraries, file integrity, removable media), read from this machine for real. Each asserts what the machine
// itself shows, so it holds wherever it runs; the replaced-program case is staged by the test and removed after.
describe.runIf(process.platform === "linux")("host checks on this Linux machine", () => {
  it("a program replaced while it runs is found by its maps, by name only", async (ctx) => {
    if (!isRoot) {
      console.log("skipped: other processes' maps are root's to read (run as root)");
      return ctx.skip();
    }
    // Not under /tmp: temporary files are left out on purpose, as needrestart does. The home directory, not the
    // checkout: a checkout may itself live under /tmp (a CI clone did).
    const base = homedir();
    if (/^(\/var)?\/tmp(\/|$)/.test(base)) {
      console.log(`skipped: the home directory ${base} is under /tmp, which the check leaves out`);
      return ctx.skip();
    }
    const dir = await mkdtemp(join(base, ".hcs-replaced-"));
    const program = join(dir, "hcs-replaced-sl");
    await copyFile("/bin/sleep", program);
    const child = spawn(program, ["30"], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 200));
      // An upgrade replaces the file under the running process: here, it is deleted.
      await rm(program);
      const state = await linuxReplacedLibraries(await createRealHost());
      expect(state.notAssessed).toBeNull();
      expect(state.findings[0]).toMatchObject({ id: "patches.services_on_replaced_libraries", severity: "medium" });
      expect((state.findings[0]!.evidence as { processes: string[] }).processes).toContain("hcs-replaced-sl");
      expect(JSON.stringify(state.findings[0])).not.toContain(dir);
    } finally {
      child.kill();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it("malware protection: what this machine has is judged, and nothing found is a finding only when the process list was read", async () => {
    const host = await createRealHost();
    const reading = await linuxMalwareReading(host);
    const state = judgeMalware("linux", reading);
    const clamav = await host.fs.exists("/usr/bin/clamscan");
    if (reading.products.length === 0 && !clamav) {
      expect(state.findings.map((f) => f.id)).toEqual(["patches.no_malware_protection"]);
    } else {
      expect(state.findings.every((f) => f.check_id !== "patches.no_malware_protection")).toBe(true);
    }
  });

  it("file integrity, USB and FireWire storage as this machine has them", async () => {
    const host = await createRealHost();
    const integrity = await linuxFileIntegrity(host);
    const aide = (await host.fs.exists("/usr/bin/aide")) || (await host.fs.exists("/usr/sbin/aide"));
    if (!aide && !(await host.fs.exists("/etc/osquery/osquery.conf")) && !(await host.fs.exists("/usr/sbin/tripwire")))
      expect(integrity.findings.map((f) => f.title)).toContain(
        "No file integrity monitoring watches this machine's files",
      );
    const media = await linuxRemovableMedia(host);
    const usb = media.facts.usb_storage as { usb_bus: boolean; kernel_driver: string; allowed: boolean };
    const firewire = media.facts.firewire_storage as { firewire_bus: boolean; allowed: boolean };
    expect(usb.usb_bus).toBe(await host.fs.exists("/sys/bus/usb"));
    expect(firewire.firewire_bus).toBe(await host.fs.exists("/sys/bus/firewire"));
    // Raised exactly when allowed, whether or not a controller is present now.
    expect(media.findings.map((f) => f.check_id).sort()).toEqual(
      [
        ...(firewire.allowed ? ["asset_inventory.firewire_storage_allowed"] : []),
        ...(usb.allowed ? ["asset_inventory.usb_storage_allowed"] : []),
      ].sort(),
    );
    const release = (await host.sysinfo.osInfo()).kernel;
    if (!(await host.fs.exists(`/lib/modules/${release}`)) && (await host.fs.exists("/proc/config.gz"))) {
      // A kernel without a module tree (this project's test VM): its own config decides, read for real.
      expect(usb.kernel_driver).not.toBe("unknown");
    }
  });
});
