import { readFileSync } from "node:fs";
import { type AuditProofBundle, type NoteVerifierKey, parseVerifierKey, verifyAuditProof } from "@hcs/protocol";
import type { Command } from "commander";
import { trustKeyChain } from "../audit/key-chain.js";
import { rotateAuditLogKey } from "../audit/key-rotation.js";
import { nodeEd25519Verify } from "../audit/log-key.js";
import { readLogKeyChain } from "../audit/log-keys.js";
import { verifyAuditLog } from "../audit/verify-log.js";
import type { Store } from "../store/store.js";
import { registerAnchorCommands } from "./anchor-commands.js";
import { auditedAs, type CliEnv, openCommandStore, printResult, withServices } from "./context.js";

/** The chain client (viem) is loaded only by the commands that talk to a chain, not by every `hcs-server` start. */
const anchorVerify = () => import("../audit/anchor-verify.js");

/**
 * Exit codes of the verify commands, apart from the CLI's usual 0/1/2: an auditor's script must tell "the log (or
 * bundle) does not verify" from "could not check" (store down, file unreadable), so a failed verification is 3.
 */
export const VERIFY_EXIT = { verified: 0, couldNotCheck: 1, usage: 2, notVerified: 3 } as const;

export class VerifyUsageError extends Error {}

/** The text of a --verifier-key argument: the key itself, or `@file` holding it. */
const verifierKeyText = (given: string): string =>
  (given.startsWith("@") ? readFileSync(given.slice(1), "utf8") : given).trim();

/**
 * The verifier key to trust: the one given (what an auditor should do), else the log's first key as the store holds
 * it (its rotations are then followed from it, each only if its handover verifies).
 */
async function trustedKey(store: Store, given: string | undefined): Promise<NoteVerifierKey> {
  if (given !== undefined) {
    const key = parseVerifierKey(verifierKeyText(given));
    if (!key) throw new VerifyUsageError("--verifier-key is not a C2SP verifier key (<name>+<hash>+<base64 key>)");
    return key;
  }
  const first = (await readLogKeyChain(store.db))[0];
  const key = first ? parseVerifierKey(first.verifierKey) : null;
  if (!key)
    throw new VerifyUsageError(
      "the log has no key in the store yet: pass --verifier-key (from /.well-known/hcs-audit-log-key)",
    );
  return key;
}

const VERIFIER_KEY_HELP =
  "the log's verifier key, or @file holding it (default: the log's first key as the store holds it)";

export function registerAuditCommands(program: Command, cli: CliEnv): Command {
  const audit = program
    .command("audit")
    .description("The verifiable audit log: check it whole, or check one event's proof bundle")
    .addHelpText(
      "after",
      "\nExit codes of verify and verify-proof: 0 verified, 3 does NOT verify (the first bad index or check is named),\n1 could not check (store unreachable, unreadable file), 2 usage error.\n",
    );
  const json = () => Boolean(program.opts().json);

  audit
    .command("verify")
    .description(
      "Recompute every leaf and the tree from the store, check every checkpoint's signature and consistency, and name the first altered, missing or moved event",
    )
    .option("--verifier-key <key>", VERIFIER_KEY_HELP)
    .option("--rpc-url <url>", "also check every finalized anchor on this chain's node (any node of the chain will do)")
    .addHelpText(
      "after",
      "\nExamples:\n  hcs-server audit verify\n  hcs-server audit verify --verifier-key @hcs-audit-log-key.txt --json\n  hcs-server audit verify --rpc-url https://l2-node.example\n",
    )
    .action(async (o: { verifierKey?: string; rpcUrl?: string }) => {
      const { store } = await openCommandStore(cli);
      const progress = process.stderr.isTTY
        ? (done: number, of: number) => void process.stderr.write(`\rchecked ${done} of ${of} leaves`)
        : undefined;
      try {
        const key = await trustedKey(store, o.verifierKey);
        const v = await verifyAuditLog(store, key, nodeEd25519Verify, { onProgress: progress });
        if (progress) process.stderr.write("\n");
        const anchors = o.rpcUrl ? await (await anchorVerify()).verifyAnchors(store, o.rpcUrl) : null;
        const ok = v.ok && !anchors?.firstMismatch;
        printResult(cli, json(), {
          verified: ok,
          leaves: v.leaves,
          checkpoints: v.checkpoints,
          keys: v.keys,
          rotations: v.rotations,
          unsequenced: v.unsequenced,
          first_bad_index: v.firstProblem?.index ?? null,
          problem: v.firstProblem?.kind ?? null,
          detail: v.firstProblem?.message ?? null,
          problems: v.problems.length,
          anchors_checked: anchors?.checked ?? null,
          anchors_not_final: anchors?.notFinal ?? null,
          anchor_mismatch: anchors?.firstMismatch
            ? `checkpoint ${anchors.firstMismatch.size}: ${anchors.firstMismatch.reason} (${anchors.firstMismatch.message})`
            : null,
        });
        if (!ok) process.exitCode = VERIFY_EXIT.notVerified;
      } finally {
        await store.close();
      }
    });

  audit
    .command("verify-proof <file>")
    .description(
      "Check an audit event's proof bundle (as GET /v1/a2a/audit/events/{id}/proof returns it; - for stdin) without the store",
    )
    .option(
      "--verifier-key <key>",
      "the log's verifier key, or @file holding it (default: the bundle's own, with a warning)",
    )
    .option("--rpc-url <url>", "also check the checkpoint's anchor on this chain's node")
    .addHelpText(
      "after",
      '\nExample:\n  curl -s -H "X-API-Key: $KEY" https://hcs.example/v1/a2a/audit/events/42/proof > proof.json\n  hcs-server audit verify-proof proof.json --verifier-key @hcs-audit-log-key.txt\n',
    )
    .action(async (file: string, o: { verifierKey?: string; rpcUrl?: string }) => {
      let text: string;
      try {
        text = readFileSync(file === "-" ? 0 : file, "utf8");
      } catch (err) {
        cli.err(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
        process.exitCode = VERIFY_EXIT.couldNotCheck;
        return;
      }
      let bundle: unknown;
      try {
        bundle = JSON.parse(text);
      } catch {
        bundle = null;
      }
      const keyText = o.verifierKey === undefined ? undefined : verifierKeyText(o.verifierKey);
      const v = verifyAuditProof(bundle, { verify: nodeEd25519Verify, trustedKey: keyText });
      if (v.ok && !v.keyTrusted)
        cli.err(
          "warning: checked against the bundle's own verifier key; compare it with the one the log publishes (--verifier-key)",
        );
      if (!v.ok) {
        printResult(cli, json(), { verified: false, failed_check: v.failure, detail: v.message });
        process.exitCode = VERIFY_EXIT.notVerified;
        return;
      }
      const { checkpoint } = bundle as AuditProofBundle;
      const onChain = o.rpcUrl
        ? await (await anchorVerify()).verifyBundleAnchor(checkpoint.anchor, checkpoint, o.rpcUrl)
        : null;
      const anchored =
        checkpoint.anchor?.state !== "finalized"
          ? "not anchored (yet)"
          : !o.rpcUrl
            ? "finalized (not checked: give --rpc-url)"
            : onChain?.ok
              ? `on chain ${checkpoint.anchor.chain_id}, block ${onChain.blockNumber}`
              : `NOT borne out by the chain: ${onChain?.ok === false ? onChain.message : "?"}`;
      const ok = onChain === null || onChain.ok;
      printResult(cli, json(), {
        verified: ok,
        leaf_index: v.leafIndex,
        tree_size: v.treeSize,
        log: v.origin,
        key_trusted: v.keyTrusted,
        anchor: anchored,
        ...(onChain && !onChain.ok ? { failed_check: "anchor", detail: onChain.reason } : {}),
      });
      if (!ok) process.exitCode = VERIFY_EXIT.notVerified;
    });
  audit
    .command("keys")
    .description("List the log's signing keys: each verifier key, the log size it signs from, and its handover")
    .option("--verifier-key <key>", "check the handovers from this key, or @file holding it (default: the first key)")
    .action(async (o: { verifierKey?: string }) => {
      const { store } = await openCommandStore(cli);
      try {
        const chain = await readLogKeyChain(store.db);
        const trusted =
          chain.length > 0 ? trustKeyChain(chain, await trustedKey(store, o.verifierKey), nodeEd25519Verify) : null;
        const trustedEpochs = new Set(trusted?.spans.map((s) => s.epoch));
        printResult(
          cli,
          json(),
          chain.map((k) => ({
            epoch: k.epoch,
            verifier_key: k.verifierKey,
            signs_from_size: k.fromSize,
            created_at: k.createdAt,
            trusted: trustedEpochs.has(k.epoch),
            ...(k.handover ? { handover: k.handover } : {}),
          })),
        );
        if (trusted && trusted.problems.length > 0) process.exitCode = VERIFY_EXIT.notVerified;
      } finally {
        await store.close();
      }
    });

  audit
    .command("rotate-key")
    .description(
      "Rotate the log's signing key: a new key signs from the log's current size, handed over by a checkpoint both keys sign",
    )
    .addHelpText(
      "after",
      "\nRunning servers sign with the new key from their next checkpoint and publish it within a minute. Publish the new\nverifier key where auditors get it; `audit verify` with the old key follows the handover.\n",
    )
    .action(async () => {
      const rotation = await withServices(cli, (deps) =>
        rotateAuditLogKey(deps.store, deps.secrets, {
          now: deps.now(),
          audit: auditedAs(cli, deps, "operator.audit.rotate-key", (r) => ({
            accountId: null,
            resource: `audit-log-key:${r.epoch}`,
          })),
        }),
      );
      printResult(cli, json(), {
        epoch: rotation.epoch,
        verifier_key: rotation.verifierKey,
        previous_verifier_key: rotation.previousVerifierKey,
        signs_from_size: rotation.fromSize,
      });
    });

  registerAnchorCommands(audit, cli);
  return audit;
}
