import { gunzipSync } from "node:zlib";
import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { type KernelDriverSources, kernelDriver, modprobeBlock } from "./kernel-modules.js";
import {
  type DriverState,
  driverEvidence,
  driverUsable,
  firewireStorageAllowedFinding,
  LINUX_USB_REMEDIATION,
  usbStorageAllowedFinding,
} from "./removable-media.js";

/** modprobe reads these directories (later ones override files of the same name; any block line counts). */
const MODPROBE_DIRS = [
  "/etc/modprobe.d",
  "/run/modprobe.d",
  "/usr/local/lib/modprobe.d",
  "/usr/lib/modprobe.d",
  "/lib/modprobe.d",
];

/** FireWire storage needs all three: the bus core, the OHCI controller driver and the SBP-2 storage protocol. */
const FIREWIRE_CHAIN = [
  { module: "firewire-core", config: "CONFIG_FIREWIRE" },
  { module: "firewire-ohci", config: "CONFIG_FIREWIRE_OHCI" },
  { module: "firewire-sbp2", config: "CONFIG_FIREWIRE_SBP2" },
] as const;

/**
 * Debian 12's modules.dep is 0.4 MiB and a kernel config 0.3 MiB; the limits only guard against a bad file. A list
 * cut short could lose the driver's line and read as "absent", so a list at the limit is not used.
 */
const MAX_LIST_BYTES = 16 * 1024 * 1024;
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export interface RemovableMediaState {
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
  readonly notAssessed: string | null;
}

/**
 * USB and FireWire mass storage on Linux (164.310(d)(1)): the driver is controlled when modprobe configuration blocks
 * it (`install … /bin/false` or `blacklist`) and it is not loaded, or when the running kernel does not have it.
 * Whether a controller is present now is recorded, not judged: one can be added to a VM or a dock at any time.
 * A driver built into the kernel cannot be blocked by modprobe at all.
 */
export async function linuxRemovableMedia(host: Host): Promise<RemovableMediaState> {
  const [files, sources, usbBus, firewireBus] = await Promise.all([
    modprobeFiles(host),
    kernelSources(host),
    host.fs.exists("/sys/bus/usb"),
    host.fs.exists("/sys/bus/firewire"),
  ]);
  const state = async (module: string, config: string): Promise<DriverState> => ({
    module,
    loaded: await host.fs.exists(`/sys/module/${module.replace(/-/g, "_")}`),
    block: modprobeBlock(files, module),
    kernel: kernelDriver(sources, module, config),
  });
  const usb = await state("usb-storage", "CONFIG_USB_STORAGE");
  const firewire = await Promise.all(FIREWIRE_CHAIN.map((d) => state(d.module, d.config)));

  const usbAllowed = driverUsable(usb);
  const usbEvidence = { usb_bus: usbBus, ...driverEvidence(usb), built_in: usb.kernel.driver === "built_in" };
  const firewireAllowed = firewire.every(driverUsable);
  const firewireEvidence = {
    firewire_bus: firewireBus,
    drivers: Object.fromEntries(firewire.map((d) => [d.module.replace(/-/g, "_"), driverEvidence(d)])),
  };
  const findings: FindingInput[] = [];
  if (usbAllowed) findings.push(usbStorageAllowedFinding(usbEvidence, LINUX_USB_REMEDIATION, usbBus));
  if (firewireAllowed) findings.push(firewireStorageAllowedFinding(firewireEvidence, firewireBus));
  return {
    facts: {
      usb_storage: { ...usbEvidence, allowed: usbAllowed },
      firewire_storage: { ...firewireEvidence, allowed: firewireAllowed },
    },
    findings,
    notAssessed: null,
  };
}

async function modprobeFiles(host: Host): Promise<{ path: string; text: string }[]> {
  const files: { path: string; text: string }[] = [];
  for (const dir of MODPROBE_DIRS) {
    for await (const f of host.fs.walk(dir, { maxFiles: 200, maxDepth: 0 })) {
      if (!f.path.endsWith(".conf")) continue;
      const text = await host.fs.readFile(f.path);
      if (text !== null) files.push({ path: f.path, text });
    }
  }
  return files;
}

/** The running kernel's module lists, and its build config only when they are not both there (a kernel without modules). */
async function kernelSources(host: Host): Promise<KernelDriverSources> {
  const release = (await host.sysinfo.osInfo()).kernel;
  const dir = `/lib/modules/${release}`;
  const list = async (name: string) => {
    const text = release ? await host.fs.readFile(`${dir}/${name}`, MAX_LIST_BYTES) : null;
    return text !== null && text.length < MAX_LIST_BYTES ? text : null;
  };
  const [builtin, dep] = await Promise.all([list("modules.builtin"), list("modules.dep")]);
  if (builtin !== null && dep !== null) return { builtin, dep, config: null };
  return { builtin, dep, config: await kernelConfig(host, release) };
}

async function kernelConfig(host: Host, release: string): Promise<string | null> {
  const boot = release ? await host.fs.readFile(`/boot/config-${release}`, MAX_CONFIG_BYTES) : null;
  if (boot !== null) return boot;
  const gz = await host.fs.readBytes("/proc/config.gz", MAX_CONFIG_BYTES);
  if (gz === null) return null;
  try {
    return gunzipSync(gz, { maxOutputLength: MAX_CONFIG_BYTES }).toString("utf8");
  } catch {
    // Not gzip after all: the config is not read, and the driver stays `unknown` rather than guessed.
    return null;
  }
}
