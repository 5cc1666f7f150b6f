/**
 * Why a per-OS reader could not read what its phase needs. The kind decides the phase's status, the same way for
 * every phase (runner/unavailable-outcome.ts); the message says it in words for the operator.
 *   not_found   the tool or file the check needs is not on this machine
 *   permission  it is there but needs privileges (root, Administrator, Full Disk Access) this run lacks
 *   timeout     it did not answer in time
 *   unparsed    it answered, but with nothing this scanner can read (an unknown format, a failure, a language)
 */
export type UnavailableKind = "not_found" | "permission" | "timeout" | "unparsed";

export class Unavailable {
  constructor(
    readonly kind: UnavailableKind,
    readonly message: string,
  ) {}
}

/** What a per-OS reader returns: what it read, or why it could not. */
export type Reading<T> = T | Unavailable;

export const isUnavailable = (reading: unknown): reading is Unavailable => reading instanceof Unavailable;

/** The tool answered with nothing readable. */
export const unparsed = (message: string) => new Unavailable("unparsed", message);

/**
 * Two reads that both failed, as one: their messages joined; the kind they share, else the one that is not
 * `not_found` (the machine has at least one of the tools, so the check is not unsupported here).
 */
export function bothUnavailable(a: Unavailable, b: Unavailable): Unavailable {
  const kind = a.kind === b.kind ? a.kind : a.kind === "not_found" ? b.kind : a.kind;
  return new Unavailable(kind, `${a.message}; ${b.message}`);
}
