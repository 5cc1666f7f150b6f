/**
 * Removable media, 164.310(d)(1) device and media controls: can a USB stick be mounted here, so ePHI can leave on
 * it (or malware arrive); FireWire (IEEE 1394) storage the same on Linux. The judgement of a Linux storage driver
 * (modprobe.d block, kernel support, loaded), the removable-storage policy registry values (Windows), and the findings.
 */
import type { FindingInput, JsonObject } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";
import { type RegKey, regDword } from "../shared/reg-query.js";
import { type KernelDriverReading, type ModprobeBlock, modprobeBlock } from "./kernel-modules.js";

export type { ModprobeBlock } from "./kernel-modules.js";

/** usb-storage's lines in modprobe.d files (kept for the callers that ask about USB only). */
export function usbStorageBlock(files: readonly { path: string; text: string }[]): ModprobeBlock {
  return modprobeBlock(files, "usb-storage");
}

/** One storage driver of the running kernel as read on the machine. */
export interface DriverState {
  readonly module: string;
  /** /sys/module/<name> exists: loaded now, so whatever modprobe.d says it already drives devices. */
  readonly loaded: boolean;
  readonly block: ModprobeBlock;
  readonly kernel: KernelDriverReading;
}

/**
 * Can the driver drive a device plugged in today or after a controller is added: not when modprobe.d blocks it and
 * it is neither built in (modprobe cannot block that) nor loaded already, nor when the kernel does not have it.
 * A kernel whose drivers were not read (`unknown`) is not shown to lack it.
 */
export function driverUsable(d: DriverState): boolean {
  if (d.loaded || d.kernel.driver === "built_in") return true;
  if (d.kernel.driver === "absent") return false;
  return !(d.block.installDisabled || d.block.blacklisted);
}

export function driverEvidence(d: DriverState): JsonObject {
  return {
    module_loaded: d.loaded,
    kernel_driver: d.kernel.driver,
    kernel_driver_source: d.kernel.source,
    install_disabled: d.block.installDisabled,
    blacklisted: d.block.blacklisted,
    config_files: d.block.files,
  };
}

export interface WindowsRemovableStoragePolicy {
  /** Group Policy "All Removable Storage classes: Deny all access" (RemovableStorageDevices\Deny_All = 1). */
  readonly denyAll: boolean;
  /** Read and write denied for the removable-disk class ({53f5630d-…}). */
  readonly removableDisksDenied: boolean;
  /** The USB mass-storage driver is disabled (Services\USBSTOR Start = 4). */
  readonly usbstorDisabled: boolean;
}

const REMOVABLE_DISKS = "{53f5630d-b6bf-11d0-94f2-00a0c91efb8b}";

/** The policy keys (`reg query …\RemovableStorageDevices /s`) and USBSTOR's key, each null when it does not exist. */
export function windowsRemovableStoragePolicy(
  policy: readonly RegKey[] | null,
  usbstor: readonly RegKey[] | null,
): WindowsRemovableStoragePolicy {
  const root = policy?.find((k) => /\\RemovableStorageDevices$/i.test(k.path));
  const disks = policy?.find((k) => k.path.toLowerCase().endsWith(REMOVABLE_DISKS));
  const start = usbstor?.[0] ? regDword(usbstor[0], "Start") : undefined;
  return {
    denyAll: root ? regDword(root, "Deny_All") === 1 : false,
    removableDisksDenied: disks ? regDword(disks, "Deny_Read") === 1 && regDword(disks, "Deny_Write") === 1 : false,
    usbstorDisabled: start === 4,
  };
}

const NOT_TRACED = "ePHI can be copied off without a trace in the device inventory, and malware can come in.";

/**
 * USB mass storage can be used on this machine; `evidence` says what was read. `busPresent` false: no USB controller
 * now, but nothing stops one being added (a VM's device, a laptop dock), so that is no control.
 */
export function usbStorageAllowedFinding(evidence: JsonObject, remediation: string, busPresent = true): FindingInput {
  return phaseFinding("asset_inventory", {
    check: "usb_storage_allowed",
    severity: "low",
    title: "USB storage devices can be used on this machine",
    detail: busPresent
      ? `Any USB stick plugged in is mounted: ${NOT_TRACED}`
      : `No USB controller is present now, but the USB storage driver is not disabled: once one is added (a virtual machine's device, a dock) any stick plugged in is mounted, and ${NOT_TRACED}`,
    remediation,
    evidence,
    controls: ["164.310(d)(1)"],
  });
}

export const LINUX_USB_REMEDIATION =
  "Block the module where USB storage is not needed: echo 'install usb-storage /bin/false' > /etc/modprobe.d/usb-storage.conf, add 'blacklist usb-storage', and unload it (modprobe -r usb-storage); allow approved encrypted devices by exception.";
export const WINDOWS_USB_REMEDIATION =
  "Set the Group Policy 'All Removable Storage classes: Deny all access' (Computer Configuration → Administrative Templates → System → Removable Storage Access), or Intune device control, allowing approved encrypted devices by exception.";

/** FireWire (IEEE 1394) storage can be used on this (Linux) machine: the SBP-2 chain is not blocked nor absent. */
export function firewireStorageAllowedFinding(evidence: JsonObject, busPresent: boolean): FindingInput {
  return phaseFinding("asset_inventory", {
    check: "firewire_storage_allowed",
    severity: "low",
    title: "FireWire storage devices can be used on this machine",
    detail: busPresent
      ? `Any FireWire disk attached is mounted: ${NOT_TRACED}`
      : `No FireWire controller is present now, but its storage drivers are not disabled: once one is added (an expansion card, a dock) any FireWire disk attached is mounted, and ${NOT_TRACED}`,
    remediation: LINUX_FIREWIRE_REMEDIATION,
    evidence,
    controls: ["164.310(d)(1)"],
  });
}

export const LINUX_FIREWIRE_REMEDIATION =
  "Block the drivers where FireWire storage is not needed: echo 'install firewire-sbp2 /bin/false' > /etc/modprobe.d/firewire.conf with the same line for firewire-ohci and firewire-core, add 'blacklist' lines for them, and rebuild the initramfs (update-initramfs -u).";
