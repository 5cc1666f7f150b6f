import { type Ed25519Verify, equalBytes, type NoteVerifierKey, parseVerifierKey } from "@hcs/protocol";
import { checkHandover } from "./key-handover.js";
import type { StoredLogKey } from "./log-keys.js";

/** A key the verifier trusts, and the log sizes whose checkpoints it may sign (both ends included). */
export interface KeySpan {
  readonly epoch: number;
  readonly key: NoteVerifierKey;
  readonly from: number;
  readonly to: number;
}

export interface TrustedKeys {
  readonly spans: readonly KeySpan[];
  /** The heads the verified handovers state: checked against the log's tree like checkpoints' heads. */
  readonly heads: readonly { readonly size: number; readonly root: Uint8Array }[];
  /** Handovers that do not verify: where (the size they claim) and why. */
  readonly problems: readonly { readonly index: number; readonly message: string }[];
}

const sameKey = (a: NoteVerifierKey, b: NoteVerifierKey) =>
  a.name === b.name && a.keyHash === b.keyHash && equalBytes(a.publicKey, b.publicKey);

/**
 * Which of the log's keys a verifier that trusts `trusted` may trust, and for which sizes. From the trusted key, the
 * chain of rotations is followed both ways, each handover only when it is signed by both keys it names and states
 * the size its key signs from: forwards, a verifier trusting the old key learns the new one; backwards, one trusting
 * the new key learns the one it took over from. The first handover that does not verify ends the chain there (a
 * `key_rotation` problem), and checkpoints signed by keys beyond it do not open with any trusted key. A trusted key
 * that is not among the log's keys is trusted alone for every size (so every checkpoint must open with it).
 */
export function trustKeyChain(
  chain: readonly StoredLogKey[],
  trusted: NoteVerifierKey,
  verify: Ed25519Verify,
): TrustedKeys {
  const keys = chain.map((k) => parseVerifierKey(k.verifierKey));
  const t = keys.findIndex((k) => k !== null && sameKey(k, trusted));
  if (t < 0)
    return { spans: [{ epoch: -1, key: trusted, from: 0, to: Number.POSITIVE_INFINITY }], heads: [], problems: [] };
  const problems: { index: number; message: string }[] = [];
  const heads: { size: number; root: Uint8Array }[] = [];
  /** Whether the handover to chain[i] verifies (i ≥ 1); its head is kept when it does, the problem noted when not. */
  const handsOver = (i: number): boolean => {
    const [previous, next, stored] = [keys[i - 1], keys[i], chain[i]!];
    const fail = (why: string) => {
      problems.push({ index: stored.fromSize, message: `the rotation to key ${stored.epoch} ${why}` });
      return false;
    };
    if (!previous || !next) return fail("names a key that is not a C2SP verifier key");
    if (stored.epoch !== chain[i - 1]!.epoch + 1) return fail("does not follow the key before it");
    if (stored.fromSize < chain[i - 1]!.fromSize) return fail("starts before the key it hands over from");
    if (!stored.handover) return fail("has no handover");
    const check = checkHandover(
      stored.handover,
      { origin: trusted.name, size: stored.fromSize, previous, next },
      verify,
    );
    if (!check.ok) return fail(`does not verify: the handover is ${check.reason}`);
    heads.push({ size: check.size, root: check.rootHash });
    return true;
  };
  let lo = t;
  while (lo > 0 && handsOver(lo)) lo--;
  let hi = t;
  while (hi + 1 < chain.length && handsOver(hi + 1)) hi++;
  const spans: KeySpan[] = [];
  for (let i = lo; i <= hi; i++)
    spans.push({
      epoch: chain[i]!.epoch,
      key: keys[i]!,
      from: i === 0 ? 0 : chain[i]!.fromSize,
      to: i < hi ? chain[i + 1]!.fromSize : Number.POSITIVE_INFINITY,
    });
  return { spans, heads, problems };
}
