import { createHash, createPublicKey, verify } from "node:crypto";

// An audit proof bundle checked from the published formats alone — RFC 8785, RFC 9162 §2.1.3.2, C2SP signed-note
// and tlog-checkpoint — with nothing of @hcs/protocol or the server: what an auditor would write to check a bundle
// without trusting the code that made it. Returns null when the bundle holds, else what failed.

const sha256 = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
const canonical = (v: unknown): string =>
  v !== null && typeof v === "object" && !Array.isArray(v)
    ? `{${Object.keys(v)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
        .join(",")}}`
    : Array.isArray(v)
      ? `[${v.map(canonical).join(",")}]`
      : JSON.stringify(v);

// biome-ignore lint/suspicious/noExplicitAny: the bundle is read as the JSON it is, on purpose untyped.
export function independentlyVerify(bundle: any, verifierKey: string): string | null {
  const leaf = sha256(Buffer.from([0]), Buffer.from(canonical(bundle.event.record), "utf8"));
  if (leaf.toString("hex") !== bundle.leaf_hash) return "leaf hash";
  // Verifier key: <name>+<hex key hash>+<base64 of 0x01 || Ed25519 public key>.
  // The key is base64, which may itself contain '+': split at the first two only.
  const [name, keyHash, ...rest] = verifierKey.trim().split("+");
  const keyB64 = rest.join("+");
  const key = Buffer.from(keyB64, "base64");
  const [text, sigs] = bundle.checkpoint.note.split("\n\n");
  const sigLine = sigs.split("\n").find((l: string) => l.startsWith(`\u2014 ${name} `));
  if (!sigLine) return "no signature by the log";
  const sig = Buffer.from(sigLine.split(" ")[2], "base64");
  if (sig.subarray(0, 4).toString("hex") !== keyHash) return "key hash";
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), key.subarray(1)]);
  const publicKey = createPublicKey({ key: spki, format: "der", type: "spki" });
  if (!verify(null, Buffer.from(`${text}\n`, "utf8"), publicKey, sig.subarray(4))) return "signature";
  const [origin, sizeText, rootB64] = text.split("\n");
  if (origin !== name) return "origin";
  const size = Number(sizeText);
  // RFC 9162 §2.1.3.2.
  let fn = bundle.leaf_index;
  let sn = size - 1;
  let r = leaf;
  for (const hex of bundle.inclusion_proof as string[]) {
    const p = Buffer.from(hex, "hex");
    if (sn === 0) return "proof too long";
    if (fn % 2 === 1 || fn === sn) {
      r = sha256(Buffer.from([1]), p, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else r = sha256(Buffer.from([1]), r, p);
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  if (sn !== 0 || r.toString("base64") !== rootB64) return "inclusion";
  return null;
}
