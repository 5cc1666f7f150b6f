import type { RosterRowProblem } from "../../administrative/training.js";
import { CSV_COLUMNS } from "../../administrative/training-csv.js";
import type { TrainingStatus } from "../../administrative/training-schemas.js";
import { CsrfField, Notice, PortalPage, type Viewer } from "./layout.js";

/** What an upload did: rows read, and either what was stored or why nothing was. */
export interface RosterUploadResult {
  readonly rows: number;
  readonly members: number;
  readonly completions: number;
  readonly problems: readonly RosterRowProblem[];
  /** The training status after the upload was stored; null when nothing was stored. */
  readonly status: TrainingStatus | null;
}

/** Problems listed on the page at most (the count says how many more). */
const PROBLEMS_SHOWN = 50;

/** Uploading the workforce roster and completions as CSV, and what the last upload did. */
export function TrainingRosterPage({
  viewer,
  practiceName,
  maxMib,
  result,
  error,
}: {
  viewer: Viewer;
  practiceName: string;
  maxMib: number;
  result: RosterUploadResult | null;
  error?: string;
}) {
  const npi = viewer.npi!;
  return (
    <PortalPage title={`Training roster · ${practiceName}`} viewer={viewer} active="records">
      <p>
        <a href={`/portal/practices/${npi}/records`}>Back to records</a>
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      {result?.status && (
        <Notice kind="ok">
          Stored {result.members} {result.members === 1 ? "person" : "people"} and {result.completions} completion
          {result.completions === 1 ? "" : "s"} from {result.rows} row{result.rows === 1 ? "" : "s"}. Training is now{" "}
          {Math.round(result.status.completion_rate * 100)}% complete: {result.status.current} current,{" "}
          {result.status.due} due, {result.status.overdue} overdue.
        </Notice>
      )}
      {result && result.problems.length > 0 && (
        <section class="card">
          <Notice kind="error">
            Nothing was stored: {result.problems.length} row problem{result.problems.length === 1 ? "" : "s"} in{" "}
            {result.rows} row{result.rows === 1 ? "" : "s"}. Correct the file and upload it again.
          </Notice>
          <table class="list">
            <caption class="visually-hidden">Row problems</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Column</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {result.problems.slice(0, PROBLEMS_SHOWN).map((p) => (
                <tr>
                  <td class="num">{p.line}</td>
                  <td>{p.field ?? "—"}</td>
                  <td>{p.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {result.problems.length > PROBLEMS_SHOWN && (
            <p class="muted small">and {result.problems.length - PROBLEMS_SHOWN} more.</p>
          )}
        </section>
      )}
      <section class="card">
        <h2>Upload the training roster</h2>
        <p>
          A CSV file with a header line naming its columns: <code>member_id</code>, <code>name</code>, <code>role</code>
          , <code>hired_on</code> (required), and <code>terminated_on</code>, <code>course</code>,{" "}
          <code>completed_on</code>. One row per person, or per completed course (repeat the person's columns). Dates as
          YYYY-MM-DD. People are matched by <code>member_id</code>: uploading again updates them. At most {maxMib} MiB.
        </p>
        <p class="muted small">Columns: {CSV_COLUMNS.join(", ")}.</p>
        <form
          method="post"
          action={`/portal/practices/${npi}/training/roster`}
          enctype="multipart/form-data"
          class="stack"
        >
          <CsrfField token={viewer.csrf} />
          <label for="roster">Roster file (CSV)</label>
          <input id="roster" name="roster" type="file" accept=".csv,text/csv" required />
          <button type="submit">Upload roster</button>
        </form>
      </section>
    </PortalPage>
  );
}
