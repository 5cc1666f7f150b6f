import type { AppDeps } from "../app-deps.js";
import { createCheckpoint } from "./checkpoints.js";
import type { AuditSequencerLoop } from "./sequencer.js";

/**
 * The origin a new log gets (its name in checkpoints and in the key's signatures): the public URL's host and port,
 * then `/audit`, as C2SP suggests (a schema-less URL). It is stored with the log when the log gets its first key
 * (audit/log-keys.ts) and never derived again: a later change of the public URL does not rename the log.
 */
export function auditLogOrigin(publicUrl: string): string {
  return `${new URL(publicUrl).host}/audit`;
}

/**
 * One scheduled checkpoint: sequence what waits, then sign the head if the log grew. Several serving processes may
 * try at once: each locks the log's state to sign, and the later ones find the size already signed.
 */
export async function signCheckpoint(deps: AppDeps, sequencer: AuditSequencerLoop): Promise<void> {
  const key = deps.auditLogKey;
  if (!key) return;
  try {
    await sequencer.tick();
    const checkpoint = await createCheckpoint(deps.store, key, deps.now());
    if (checkpoint)
      deps.logger.info(
        { size: checkpoint.size, root: checkpoint.rootHash, key_epoch: checkpoint.keyEpoch },
        "audit checkpoint signed",
      );
  } catch (err) {
    deps.logger.warn({ err }, "audit checkpoint not signed this time; the next interval tries again");
  }
}
