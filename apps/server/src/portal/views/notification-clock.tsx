import type { IncidentView } from "../../administrative/incident-schema.js";
import { Pill } from "./pill.js";

const RECIPIENT: Record<string, string> = { individuals: "Individuals", hhs: "HHS", media: "Media" };

/** The notification duties of a breach: who, by when, and where each stands today. */
export function NotificationClock({ duties }: { duties: IncidentView["notifications"] }) {
  if (duties.length === 0) return <p class="muted">No notification is due: this is not a breach of unsecured PHI.</p>;
  return (
    <table class="list">
      <thead>
        <tr>
          <th scope="col">Notify</th>
          <th scope="col">Deadline</th>
          <th scope="col">State</th>
          <th scope="col">Basis</th>
        </tr>
      </thead>
      <tbody>
        {duties.map((d) => (
          <tr>
            <td>{RECIPIENT[d.recipient] ?? d.recipient}</td>
            <td>
              {d.due_on ?? "—"}
              {d.days_remaining !== null && (
                <span class="muted small">
                  {" "}
                  ({d.days_remaining >= 0 ? `${d.days_remaining} days left` : `${-d.days_remaining} days overdue`})
                </span>
              )}
            </td>
            <td>
              <Pill state={d.status} />
              {d.sent_on && <span class="muted small"> sent {d.sent_on}</span>}
            </td>
            <td class="small">{d.basis}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
