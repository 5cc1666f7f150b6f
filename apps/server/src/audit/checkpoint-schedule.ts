import type { AppDeps } from "../app-deps.js";
import { createCheckpoint } from "./checkpoints.js";
import type { AuditSequencerLoop } from "./sequencer.js";

/**
 * The log's origin (its name in checkpoints and in the key's signatures): the public URL's host and port, then
 * `/audit`, as C2SP suggests (a schema-less URL). Set HCS_PUBLIC_URL in production: a different URL is a
 * different origin, and verifiers trust the key under its name.
 */
export function auditLogOrigin(publicUrl: string): string {
  return `${new URL(publicUrl).host}/audit`;
}

/**
 * One scheduled checkpoint: sequence what waits, then sign the head if the log grew. Several serving processes may
 * try at once; the checkpoint of a size is stored once (the others' inserts conflict and are dropped, logged).
 */
export async function signCheckpoint(deps: AppDeps, sequencer: AuditSequencerLoop): Promise<void> {
  const key = deps.auditLogKey;
  if (!key) return;
  try {
    await sequencer.tick();
    const checkpoint = await createCheckpoint(deps.store, key, deps.now());
    if (checkpoint) deps.logger.info({ size: checkpoint.size, root: checkpoint.rootHash }, "audit checkpoint signed");
  } catch (err) {
    deps.logger.warn({ err }, "audit checkpoint not signed this time (another process may have signed it)");
  }
}
