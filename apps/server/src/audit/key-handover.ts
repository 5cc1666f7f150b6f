import {
  type Ed25519Verify,
  formatCheckpoint,
  formatVerifierKey,
  type NoteVerifierKey,
  openNote,
  parseCheckpoint,
} from "@hcs/protocol";

/**
 * A key rotation's handover (docs/audit.md#the-log-key-backup-and-rotation): a C2SP checkpoint of the log at the size
 * where the new key takes over, with one extension line naming both keys, signed as one signed note by the previous
 * key and by the new one. A verifier that trusts the previous key learns the new one from it (and the new key's
 * signature shows its holder made the statement); one that trusts the new key learns the previous one. Either way the
 * head it states is checked against the log's tree, like any checkpoint's.
 */
export const HANDOVER_EXTENSION = "hcs-key-handover";

/** The handover's text: the log's checkpoint at `size` and the line `hcs-key-handover <previous> <next>`. */
export function handoverText(
  origin: string,
  size: number,
  rootHash: Uint8Array,
  previousVerifierKey: string,
  nextVerifierKey: string,
): string {
  return formatCheckpoint({
    origin,
    size,
    rootHash,
    extensions: [`${HANDOVER_EXTENSION} ${previousVerifierKey} ${nextVerifierKey}`],
  });
}

export type HandoverCheck =
  | { readonly ok: true; readonly size: number; readonly rootHash: Uint8Array }
  | { readonly ok: false; readonly reason: string };

const keyText = (k: NoteVerifierKey) => formatVerifierKey(k.name, k.publicKey);

/**
 * Checks that `note` hands the log `origin` over from `previous` to `next` at `size`: it opens with both keys, is a
 * checkpoint of `origin` at that size, and its extension line names exactly these two keys.
 */
export function checkHandover(
  note: string,
  o: { origin: string; size: number; previous: NoteVerifierKey; next: NoteVerifierKey },
  verify: Ed25519Verify,
): HandoverCheck {
  const byPrevious = openNote(note, o.previous, verify);
  if (!byPrevious.ok) return { ok: false, reason: `not signed by the previous key (${byPrevious.reason})` };
  const byNext = openNote(note, o.next, verify);
  if (!byNext.ok) return { ok: false, reason: `not signed by the new key (${byNext.reason})` };
  const checkpoint = parseCheckpoint(byPrevious.text);
  if (!checkpoint) return { ok: false, reason: "not a checkpoint" };
  if (checkpoint.origin !== o.origin) return { ok: false, reason: `for another log (${checkpoint.origin})` };
  if (checkpoint.size !== o.size) return { ok: false, reason: `at size ${checkpoint.size}, not ${o.size}` };
  const line = `${HANDOVER_EXTENSION} ${keyText(o.previous)} ${keyText(o.next)}`;
  if (checkpoint.extensions.length !== 1 || checkpoint.extensions[0] !== line)
    return { ok: false, reason: "does not name these two keys" };
  return { ok: true, size: checkpoint.size, rootHash: checkpoint.rootHash };
}
