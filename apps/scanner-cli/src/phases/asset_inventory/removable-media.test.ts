import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createFakeHost, type FakeHostScript } from "../../host/fake-host.js";
import { UNKNOWN_OS } from "../../host/host.js";
import { kernelDriver, modprobeBlock } from "./kernel-modules.js";
import { linuxRemovableMedia } from "./linux-removable-media.js";
import { usbStorageBlock } from "./removable-media.js";
import { windowsRemovableMedia } from "./win32-removable-media.js";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
// Debian 12's kernel 6.1.0-56-amd64 (linux-image-6.1.0-56-amd64 6.1.192-2): its modules.builtin whole, its
// modules.dep (from depmod over the package) cut to the USB, FireWire and SCSI lines, its config cut to the symbols
// read here; and the config of this project's CI VM (a Firecracker kernel without modules, USB or FireWire), cut alike.
const DEBIAN_BUILTIN = fixture("linux-debian12-modules.builtin");
const DEBIAN_DEP = fixture("linux-debian12-modules.dep");
const DEBIAN_CONFIG = fixture("linux-debian12-kernel-config.txt");
const VM_CONFIG = fixture("linux-firecracker-kernel-config.txt");

const RELEASE = "6.1.0-56-amd64";
const MODULES = `/lib/modules/${RELEASE}`;
const debianKernel = { [`${MODULES}/modules.builtin`]: DEBIAN_BUILTIN, [`${MODULES}/modules.dep`]: DEBIAN_DEP };
const usbBus = { "/sys/bus/usb/drivers_autoprobe": "1\n" };
const firewireBus = { "/sys/bus/firewire/drivers_autoprobe": "1\n" };
const linux = (files: FakeHostScript["files"]) =>
  createFakeHost({
    platform: "linux",
    files,
    sysinfo: { osInfo: { ...UNKNOWN_OS, platform: "linux", kernel: RELEASE, hostname: "h", arch: "x64" } },
  });
const usbBlocked = { "/etc/modprobe.d/usb-storage.conf": "install usb-storage /bin/false\nblacklist usb-storage\n" };
const firewireBlocked = { "/etc/modprobe.d/firewire.conf": "install firewire-ohci /bin/false\n" };
const ids = (s: { findings: { id: string }[] }) => s.findings.map((f) => f.id);

describe("modprobe.d and the kernel's drivers (pure)", () => {
  it("reads install … /bin/false and blacklist lines, with - and _ alike, ignoring comments", () => {
    expect(
      usbStorageBlock([
        {
          path: "/etc/modprobe.d/cis.conf",
          text: "# install usb-storage /bin/false\ninstall usb_storage /bin/false\n",
        },
        { path: "/etc/modprobe.d/other.conf", text: "blacklist pcspkr\n" },
      ]),
    ).toEqual({ installDisabled: true, blacklisted: false, files: ["/etc/modprobe.d/cis.conf"] });
    expect(usbStorageBlock([{ path: "/lib/modprobe.d/b.conf", text: "blacklist usb-storage" }]).blacklisted).toBe(true);
    expect(
      usbStorageBlock([
        { path: "/etc/modprobe.d/x.conf", text: "install usb-storage /sbin/modprobe --ignore-install usb-storage" },
      ]).installDisabled,
    ).toBe(false);
    // One module's lines do not block another (usb-storage is not uas, firewire-ohci is not firewire-sbp2).
    expect(
      modprobeBlock([{ path: "/etc/modprobe.d/f.conf", text: "blacklist firewire_ohci" }], "firewire-sbp2"),
    ).toEqual({ installDisabled: false, blacklisted: false, files: [] });
    expect(
      modprobeBlock([{ path: "/etc/modprobe.d/f.conf", text: "blacklist firewire_ohci" }], "firewire-ohci"),
    ).toMatchObject({ blacklisted: true });
  });

  it("Debian's kernel: usb-storage and the FireWire chain are modules, by its module lists", () => {
    const lists = { builtin: DEBIAN_BUILTIN, dep: DEBIAN_DEP, config: null };
    for (const m of ["usb-storage", "firewire-core", "firewire-ohci", "firewire-sbp2"])
      expect(kernelDriver(lists, m, "CONFIG_X")).toEqual({ driver: "module", source: "modules.dep" });
    // A name only contained in another module's path is not that module (ums-usbat is not usb-storage).
    expect(kernelDriver(lists, "usbat", "CONFIG_X")).toEqual({ driver: "absent", source: "modules.dep" });
    // uas is in the dep excerpt; zswap is compiled in.
    expect(kernelDriver(lists, "zswap", "CONFIG_X")).toEqual({ driver: "built_in", source: "modules.builtin" });
  });

  it("by the build config when the module lists are not there", () => {
    const debian = { builtin: null, dep: null, config: DEBIAN_CONFIG };
    expect(kernelDriver(debian, "usb-storage", "CONFIG_USB_STORAGE").driver).toBe("module");
    expect(kernelDriver(debian, "firewire-sbp2", "CONFIG_FIREWIRE_SBP2").driver).toBe("module");
    const vm = { builtin: null, dep: null, config: VM_CONFIG };
    // CONFIG_USB is not set, so CONFIG_USB_STORAGE has no line at all: absent.
    expect(kernelDriver(vm, "usb-storage", "CONFIG_USB_STORAGE")).toEqual({ driver: "absent", source: "config" });
    expect(kernelDriver(vm, "firewire-core", "CONFIG_FIREWIRE").driver).toBe("absent");
    const builtIn = { builtin: null, dep: null, config: "CONFIG_MODULES=y\nCONFIG_USB=y\nCONFIG_USB_STORAGE=y\n" };
    expect(kernelDriver(builtIn, "usb-storage", "CONFIG_USB_STORAGE").driver).toBe("built_in");
    // =m in a kernel that cannot load modules is no driver.
    expect(
      kernelDriver({ builtin: null, dep: null, config: "CONFIG_USB_STORAGE=m\n" }, "usb-storage", "CONFIG_USB_STORAGE")
        .driver,
    ).toBe("absent");
    expect(kernelDriver({ builtin: null, dep: null, config: null }, "usb-storage", "CONFIG_USB_STORAGE")).toEqual({
      driver: "unknown",
      source: null,
    });
  });
});

describe("USB storage on Linux (164.310(d)(1))", () => {
  it("not blocked, Debian's kernel, the module loaded: one low finding saying so", async () => {
    const state = await linuxRemovableMedia(
      linux({ ...usbBus, ...debianKernel, "/sys/module/usb_storage/refcnt": "0\n" }),
    );
    const usb = state.findings.filter((f) => f.id === "asset_inventory.usb_storage_allowed");
    expect(usb.map((f) => [f.severity, f.controls, f.category])).toEqual([
      ["low", ["164.310(d)(1)"], "asset_management"],
    ]);
    expect(usb[0]!.detail).toMatch(/^Any USB stick plugged in is mounted/);
    expect(usb[0]!.evidence).toMatchObject({
      usb_bus: true,
      module_loaded: true,
      kernel_driver: "module",
      install_disabled: false,
      blacklisted: false,
    });
  });

  it("not blocked and no USB bus now: still raised, the evidence and detail saying no bus is present", async () => {
    const state = await linuxRemovableMedia(linux(debianKernel));
    const usb = state.findings.find((f) => f.id === "asset_inventory.usb_storage_allowed");
    expect(usb?.evidence).toMatchObject({ usb_bus: false, kernel_driver: "module", module_loaded: false });
    expect(usb?.detail).toMatch(/No USB controller is present now/);
    expect(state.facts.usb_storage).toMatchObject({ usb_bus: false, allowed: true });
  });

  it("blocked by modprobe and not loaded: nothing raised, bus or not; blocked but still loaded: raised", async () => {
    for (const bus of [usbBus, {}]) {
      const blocked = await linuxRemovableMedia(linux({ ...bus, ...debianKernel, ...usbBlocked }));
      expect(ids(blocked)).not.toContain("asset_inventory.usb_storage_allowed");
      expect(blocked.facts.usb_storage).toMatchObject({
        allowed: false,
        config_files: ["/etc/modprobe.d/usb-storage.conf"],
      });
    }
    const stillLoaded = await linuxRemovableMedia(
      linux({ ...usbBus, ...debianKernel, ...usbBlocked, "/sys/module/usb_storage/refcnt": "1\n" }),
    );
    expect(ids(stillLoaded)).toContain("asset_inventory.usb_storage_allowed");
  });

  it("built into the kernel: modprobe cannot block it, raised", async () => {
    const state = await linuxRemovableMedia(
      linux({ ...usbBlocked, "/boot/config-6.1.0-56-amd64": "CONFIG_MODULES=y\nCONFIG_USB=y\nCONFIG_USB_STORAGE=y\n" }),
    );
    expect(state.findings.find((f) => f.id === "asset_inventory.usb_storage_allowed")?.evidence).toMatchObject({
      built_in: true,
      kernel_driver: "built_in",
      kernel_driver_source: "config",
      install_disabled: true,
    });
  });

  it("absent from the kernel (this CI VM's config, read gzipped from /proc): nothing raised, bus or not", async () => {
    const state = await linuxRemovableMedia(linux({ "/proc/config.gz": { content: gzipSync(VM_CONFIG) } }));
    expect(state.findings).toEqual([]);
    expect(state.facts.usb_storage).toMatchObject({ usb_bus: false, kernel_driver: "absent", allowed: false });
    expect(state.facts.firewire_storage).toMatchObject({ firewire_bus: false, allowed: false });
  });

  it("a kernel whose drivers cannot be read is not shown to lack it: not blocked, raised", async () => {
    const state = await linuxRemovableMedia(linux({}));
    expect(state.findings.find((f) => f.id === "asset_inventory.usb_storage_allowed")?.evidence).toMatchObject({
      kernel_driver: "unknown",
      usb_bus: false,
    });
  });
});

describe("FireWire storage on Linux (164.310(d)(1))", () => {
  it("not blocked on Debian's kernel: one low finding of its own id, with or without a FireWire bus", async () => {
    for (const [bus, present] of [
      [firewireBus, true],
      [{}, false],
    ] as const) {
      const state = await linuxRemovableMedia(linux({ ...bus, ...debianKernel, ...usbBlocked }));
      expect(state.findings.map((f) => [f.id, f.severity, f.controls])).toEqual([
        ["asset_inventory.firewire_storage_allowed", "low", ["164.310(d)(1)"]],
      ]);
      expect(state.findings[0]!.evidence).toMatchObject({
        firewire_bus: present,
        drivers: { firewire_sbp2: { kernel_driver: "module", install_disabled: false, blacklisted: false } },
      });
      expect(state.findings[0]!.detail).toMatch(
        present ? /^Any FireWire disk/ : /No FireWire controller is present now/,
      );
    }
  });

  it("any driver of the chain blocked (firewire-core, -ohci or -sbp2) and not loaded: nothing raised", async () => {
    for (const m of ["firewire-core", "firewire_ohci", "firewire-sbp2"]) {
      const conf = { "/etc/modprobe.d/fw.conf": `blacklist ${m}\n` };
      const state = await linuxRemovableMedia(linux({ ...firewireBus, ...debianKernel, ...usbBlocked, ...conf }));
      expect(state.findings).toEqual([]);
      expect(state.facts.firewire_storage).toMatchObject({ allowed: false });
    }
    const loaded = await linuxRemovableMedia(
      linux({ ...debianKernel, ...usbBlocked, ...firewireBlocked, "/sys/module/firewire_ohci/refcnt": "0\n" }),
    );
    expect(ids(loaded)).toEqual(["asset_inventory.firewire_storage_allowed"]);
  });

  it("built in: modprobe cannot block it; absent (SBP-2 not in the kernel): nothing to block", async () => {
    const builtIn = await linuxRemovableMedia(
      linux({
        ...usbBlocked,
        ...firewireBlocked,
        "/boot/config-6.1.0-56-amd64":
          "CONFIG_MODULES=y\nCONFIG_FIREWIRE=y\nCONFIG_FIREWIRE_OHCI=y\nCONFIG_FIREWIRE_SBP2=y\nCONFIG_USB=m\nCONFIG_USB_STORAGE=m\n",
      }),
    );
    expect(ids(builtIn)).toEqual(["asset_inventory.firewire_storage_allowed"]);
    const noSbp2 = await linuxRemovableMedia(
      linux({
        ...usbBlocked,
        "/boot/config-6.1.0-56-amd64": "CONFIG_MODULES=y\nCONFIG_FIREWIRE=m\nCONFIG_FIREWIRE_OHCI=m\n",
      }),
    );
    expect(noSbp2.findings).toEqual([]);
    expect(noSbp2.facts.firewire_storage).toMatchObject({
      drivers: { firewire_ohci: { kernel_driver: "module" }, firewire_sbp2: { kernel_driver: "absent" } },
    });
  });
});

// reg query prints a key line, then values indented by four spaces (the shape of the captured outputs the shared
// parser is tested on, shared/reg-query.test.ts); no capture of these two keys was found, so these are composed.
const DENY_ALL =
  "\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Microsoft\\Windows\\RemovableStorageDevices\r\n    Deny_All    REG_DWORD    0x1\r\n\r\n";
const USBSTOR_ON =
  "\r\nHKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\USBSTOR\r\n    Start    REG_DWORD    0x3\r\n\r\n";
const NO_KEY = { exitCode: 1, stderr: "ERROR: The system was unable to find the specified registry key or value.\r\n" };
const POLICY = "reg query HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\RemovableStorageDevices /s";
const USBSTOR = "reg query HKLM\\SYSTEM\\CurrentControlSet\\Services\\USBSTOR /v Start";

describe("USB storage on Windows", () => {
  it("no policy and the driver on demand: allowed, one finding", async () => {
    const host = createFakeHost({ platform: "win32", commands: { [POLICY]: NO_KEY, [USBSTOR]: USBSTOR_ON } });
    const state = await windowsRemovableMedia(host);
    expect(state.findings.map((f) => f.id)).toEqual(["asset_inventory.usb_storage_allowed"]);
    expect(state.findings[0]!.remediation).toMatch(/Deny all access/);
  });

  it("Deny_All, or USBSTOR Start 4, blocks it", async () => {
    const denyAll = createFakeHost({ platform: "win32", commands: { [POLICY]: DENY_ALL, [USBSTOR]: USBSTOR_ON } });
    expect((await windowsRemovableMedia(denyAll)).findings).toEqual([]);
    const driverOff = createFakeHost({
      platform: "win32",
      commands: { [POLICY]: NO_KEY, [USBSTOR]: USBSTOR_ON.replace("0x3", "0x4") },
    });
    expect((await windowsRemovableMedia(driverOff)).facts.usb_storage).toMatchObject({
      usbstor_disabled: true,
      allowed: false,
    });
  });

  it("without reg: not assessed", async () => {
    const state = await windowsRemovableMedia(createFakeHost({ platform: "win32" }));
    expect(state.notAssessed).toMatch(/reg is not available/);
  });
});
