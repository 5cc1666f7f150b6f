// One `audit verify` of a store's log, timed inside this process, as bench/audit-verify's child: the verifier runs in
// a process of its own, as `hcs-server audit verify` does, so its heap holds nothing of the bench's (the baseline's
// million record strings in the bench's heap made every collection in the verifying thread slower). Prints one JSON
// line: seconds, leaves, ok. Argument: the store's options, as JSON; the verifier key is the log's first, from the store.
import { parseVerifierKey } from "@hcs/protocol";
import { nodeEd25519Verify } from "../../apps/server/dist/audit/log-key.js";
import { readLogKeyChain } from "../../apps/server/dist/audit/log-keys.js";
import { verifyAuditLog } from "../../apps/server/dist/audit/verify-log.js";
import { openStore, type StoreOptions } from "../../apps/server/dist/store/store.js";

const { store: options } = JSON.parse(process.argv[2]!) as { store: StoreOptions };
const store = openStore(options);
try {
  const verifier = parseVerifierKey((await readLogKeyChain(store.db))[0]!.verifierKey)!;
  const t0 = process.hrtime.bigint();
  const v = await verifyAuditLog(store, verifier, nodeEd25519Verify);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(JSON.stringify({ seconds, leaves: v.leaves, ok: v.ok, problem: v.firstProblem }));
} finally {
  await store.close();
}
