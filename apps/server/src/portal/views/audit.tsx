import type { AuditProofBundle } from "@hcs/protocol";
import type { AccountAuditEvent } from "../../audit/account-events.js";
import { PortalPage, type Viewer } from "./layout.js";

export const proofPageUrl = (id: number) => `/portal/audit/events/${id}`;
export const proofFileUrl = (id: number) => `/portal/audit/events/${id}/proof.json`;
export const proofFileName = (id: number) => `hcs-audit-proof-${id}.json`;

const when = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;

/** Audit: the account's recent events (its own only), each linking its proof. */
export function AuditPage({ viewer, events }: { viewer: Viewer; events: readonly AccountAuditEvent[] }) {
  return (
    <PortalPage title="Audit log" viewer={viewer} active="audit">
      <section class="card">
        <h2>Recent events of your account</h2>
        <p class="muted small">
          Every sign-in, change and API call of your account is a record in a tamper-evident log. Open an event to see
          its inclusion proof and check it yourself.
        </p>
        {events.length === 0 ? (
          <p class="muted">No events yet.</p>
        ) : (
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Outcome</th>
                <th scope="col">Resource</th>
                <th scope="col">Log position</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr>
                  <td>
                    <a href={proofPageUrl(e.id)}>#{e.id}</a>
                  </td>
                  <td>{when(e.at)}</td>
                  <td>
                    {e.action}
                    <span class="muted small"> · {e.transport}</span>
                  </td>
                  <td>
                    {e.outcome}
                    {e.code && <span class="muted small"> ({e.code})</span>}
                  </td>
                  <td>{e.resource ?? "—"}</td>
                  <td>{e.leaf_index === null ? "not yet sequenced" : `leaf ${e.leaf_index}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </PortalPage>
  );
}

function anchorText(bundle: AuditProofBundle): string {
  const anchor = bundle.checkpoint.anchor;
  if (!anchor) return "not anchored (anchoring is not configured, or has not reached this checkpoint yet)";
  const where = `chain ${anchor.chain_id}, contract ${anchor.contract}`;
  return anchor.tx_hash ? `${anchor.state} — ${where}, transaction ${anchor.tx_hash}` : `${anchor.state} — ${where}`;
}

/**
 * One event and its proof: the record as the log hashed it, its leaf, the inclusion proof's state (pending until a
 * signed checkpoint covers the leaf), the checkpoint and its anchor, and how to verify it offline.
 */
export function ProofPage({
  viewer,
  event,
  bundle,
}: {
  viewer: Viewer;
  event: AccountAuditEvent;
  bundle: AuditProofBundle | null;
}) {
  return (
    <PortalPage title={`Audit event #${event.id}`} viewer={viewer} active="audit">
      <section class="card">
        <h2>The event</h2>
        <dl class="evidence">
          <dt>When</dt>
          <dd>{when(event.at)}</dd>
          <dt>What</dt>
          <dd>
            {event.action} ({event.transport})
          </dd>
          <dt>Outcome</dt>
          <dd>
            {event.outcome}
            {event.code ? ` (${event.code})` : ""}
          </dd>
          <dt>Resource</dt>
          <dd>{event.resource ?? "—"}</dd>
          {event.operator && (
            <>
              <dt>Person or operator</dt>
              <dd>{event.operator}</dd>
            </>
          )}
          <dt>Leaf index</dt>
          <dd>{event.leaf_index === null ? "not yet sequenced (within a second of the event)" : event.leaf_index}</dd>
        </dl>
      </section>
      <section class="card">
        <h2>Inclusion proof</h2>
        {bundle === null ? (
          <p>
            <strong>Pending.</strong> No signed checkpoint covers this event yet. Checkpoints are signed on a schedule
            (daily unless the operator set another interval); come back after the next one.
          </p>
        ) : (
          <>
            <p>
              <strong>Proved</strong> to the signed checkpoint of size {bundle.checkpoint.size}, signed{" "}
              {when(bundle.checkpoint.created_at)}: {bundle.inclusion_proof.length} hashes lead from leaf{" "}
              {bundle.leaf_index} to its root.
            </p>
            <dl class="evidence">
              <dt>Leaf hash</dt>
              <dd>
                <code>{bundle.leaf_hash}</code>
              </dd>
              <dt>Checkpoint root</dt>
              <dd>
                <code>{bundle.checkpoint.root_hash}</code>
              </dd>
              <dt>Anchor</dt>
              <dd>{anchorText(bundle)}</dd>
              <dt>Log verifier key</dt>
              <dd>
                <code>{bundle.verifier_key}</code>
              </dd>
            </dl>
            <h3>Signed checkpoint</h3>
            <pre>
              <code>{bundle.checkpoint.note}</code>
            </pre>
          </>
        )}
      </section>
      {bundle !== null && (
        <section class="card">
          <h2>Verify it yourself</h2>
          <ol>
            <li>
              <a href={proofFileUrl(event.id)} download={proofFileName(event.id)}>
                Download the proof bundle (JSON)
              </a>{" "}
              — the same bundle <code>GET /v1/a2a/audit/events/{event.id}/proof</code> returns.
            </li>
            <li>
              Save the log's verifier key the service publishes at{" "}
              <a href="/.well-known/hcs-audit-log-key">/.well-known/hcs-audit-log-key</a> as{" "}
              <code>hcs-audit-log-key.txt</code> (it must match the key above; once anchored, the checkpoint can also be
              compared with its transaction on chain).
            </li>
            <li>
              Check the bundle on any machine, without access to this service:
              <div class="command">
                <pre id="verify-command">
                  <code>{`hcs-server audit verify-proof ${proofFileName(event.id)} --verifier-key @hcs-audit-log-key.txt`}</code>
                </pre>
              </div>
              It recomputes the leaf from the record, follows the inclusion proof to the checkpoint's root and checks
              the checkpoint's signature with the key you trust (without <code>--verifier-key</code> it uses the
              bundle's own key, and says so).
            </li>
          </ol>
        </section>
      )}
    </PortalPage>
  );
}
