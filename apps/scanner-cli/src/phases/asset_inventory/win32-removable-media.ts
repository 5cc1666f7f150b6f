import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { parseRegQuery } from "../shared/reg-query.js";
import type { RemovableMediaState } from "./linux-removable-media.js";
import { usbStorageAllowedFinding, WINDOWS_USB_REMEDIATION, windowsRemovableStoragePolicy } from "./removable-media.js";

const POLICY_KEY = "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\RemovableStorageDevices";
const USBSTOR_KEY = "HKLM\\SYSTEM\\CurrentControlSet\\Services\\USBSTOR";

/** Windows: the removable-storage Group Policy and the USB mass-storage driver's start type, from the registry. */
export async function windowsRemovableMedia(host: Host, signal?: AbortSignal): Promise<RemovableMediaState> {
  const [policy, usbstor] = await Promise.all([
    host.exec("reg", ["query", POLICY_KEY, "/s"], { signal }),
    host.exec("reg", ["query", USBSTOR_KEY, "/v", "Start"], { signal }),
  ]);
  const problem = unusableOutput(policy) ?? unusableOutput(usbstor);
  if (problem) return { facts: {}, findings: [], notAssessed: problem };
  // reg exits 1 when the key does not exist: no policy (the default, every device allowed).
  const state = windowsRemovableStoragePolicy(
    policy.ok ? parseRegQuery(policy.stdout) : null,
    usbstor.ok ? parseRegQuery(usbstor.stdout) : null,
  );
  const evidence = {
    deny_all_policy: state.denyAll,
    removable_disks_denied: state.removableDisksDenied,
    usbstor_disabled: state.usbstorDisabled,
  };
  const allowed = !state.denyAll && !state.removableDisksDenied && !state.usbstorDisabled;
  return {
    facts: { usb_storage: { ...evidence, allowed } },
    findings: allowed ? [usbStorageAllowedFinding(evidence, WINDOWS_USB_REMEDIATION)] : [],
    notAssessed: null,
  };
}
