import type { PracticeReportEntry } from "../../reports/practice-reports.js";
import { PortalPage, type Viewer } from "./layout.js";

/** The address of a job's report under the portal (session and account checked there, like the API's rules). */
export const portalReportUrl = (npi: string, jobId: string, format: "html" | "pdf") =>
  `/portal/practices/${npi}/reports/${jobId}?format=${format}`;

/** Reports: the practice's completed full scans, newest first, each with its report as HTML and as PDF. */
export function ReportsPage({
  viewer,
  practiceName,
  npi,
  reports,
}: {
  viewer: Viewer;
  practiceName: string;
  npi: string;
  reports: readonly PracticeReportEntry[];
}) {
  return (
    <PortalPage title={`Reports · ${practiceName}`} viewer={viewer} active="reports">
      <section class="card">
        <h2>Full scans with report</h2>
        {reports.length === 0 ? (
          <p class="muted">No full scan of this practice has completed yet.</p>
        ) : (
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Completed</th>
                <th scope="col">Grade at completion</th>
                <th scope="col">Report</th>
              </tr>
            </thead>
            <tbody>
              {reports.map((r) => (
                <tr>
                  <td>
                    <time datetime={r.completed_at}>{r.completed_at.slice(0, 16).replace("T", " ")} UTC</time>
                  </td>
                  <td>{r.grade === null ? "—" : `${r.grade} (${r.score})`}</td>
                  <td>
                    <a href={portalReportUrl(npi, r.job_id, "html")}>View HTML</a>
                    {" · "}
                    <a href={portalReportUrl(npi, r.job_id, "pdf")}>Download PDF</a>
                    <span class="muted small"> job {r.job_id.slice(0, 8)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p class="muted small">
          A report is rendered from the scan as it completed; its requirement states and audit proofs are as of the
          moment you open it.
        </p>
      </section>
    </PortalPage>
  );
}
