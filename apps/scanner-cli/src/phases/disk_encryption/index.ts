import type { FindingInput } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { ephiBearingEvidence } from "../ephi-bearing.js";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { phaseFinding } from "../shared/finding.js";
import { ok } from "../shared/outcome.js";
import { darwinVolumes } from "./darwin.js";
import { linuxVolumes } from "./linux.js";
import type { VolumeEncryption } from "./parse.js";
import { windowsVolumes } from "./win32.js";

/** BitLocker / FileVault / LUKS state of every fixed volume (phase 4, docs/scanner.md). */
export const diskEncryptionPhase = definePhase({
  id: "disk_encryption",
  readers: { linux: linuxVolumes, darwin: darwinVolumes, win32: windowsVolumes },
  // Whether the machine holds ePHI decides the grade cap; those phases say so.
  dependsOn: ["asset_inventory", "ephi_flow"],
  run: checkDiskEncryption,
});

async function checkDiskEncryption(ctx: PhaseContext, volumes: VolumeEncryption[]): Promise<PhaseOutcome> {
  const ephi = ephiBearingEvidence(ctx.earlier);
  const findings: FindingInput[] = volumes
    .filter((v) => !v.encrypted)
    .map((v) =>
      phaseFinding("disk_encryption", {
        check: v.method === "suspended" ? "encryption_suspended" : "unencrypted_volume",
        subject: v.mount,
        severity: "high",
        title:
          v.method === "suspended"
            ? `BitLocker protection is suspended on ${v.volume}`
            : `Fixed volume ${v.mount} is not encrypted`,
        detail:
          (ephi.bearing
            ? `This machine holds ePHI (${ephi.reasons.join("; ")}). `
            : "Whether this machine holds ePHI is not established; in a practice most workstations do. ") +
          "A lost or stolen disk without encryption exposes every file on it, and a breach of unencrypted ePHI must be reported.",
        remediation: remediationFor(ctx.host.platform),
        evidence: { volume: v.volume, mount: v.mount, method: v.method, ephi_bearing: ephi.bearing },
        ...(ephi.bearing ? { gradeCap: "unencrypted_ephi_device" as const } : {}),
      }),
    );
  return ok(
    {
      volumes: volumes.map((v) => ({ volume: v.volume, mount: v.mount, encrypted: v.encrypted, method: v.method })),
      ephi_bearing: ephi.bearing,
    },
    findings,
  );
}

function remediationFor(platform: Host["platform"]): string {
  if (platform === "win32")
    return "Turn on BitLocker for every fixed volume (TPM + PIN), and escrow the recovery keys.";
  if (platform === "darwin")
    return "Turn on FileVault (System Settings → Privacy & Security) and escrow the recovery key.";
  return "Reinstall or migrate the volume onto LUKS2 (dm-crypt) with a strong passphrase or TPM binding, and keep the recovery key off the machine.";
}
