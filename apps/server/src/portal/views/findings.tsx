import { CATEGORIES, type CategoryName, SEVERITIES, SOURCES } from "@hcs/protocol";
import { FindingCard, type StoredFinding } from "./finding-card.js";
import { PortalPage, type Viewer } from "./layout.js";

export interface FindingsFilter {
  readonly severity?: string;
  readonly category?: string;
  readonly source?: string;
  readonly host?: string;
  readonly status: "open" | "resolved";
}

/** The findings list with its filter form (a GET form: filters are bookmarkable and need no script). */
export function FindingsPage({
  viewer,
  practiceName,
  filter,
  findings,
  nextHref,
}: {
  viewer: Viewer;
  practiceName: string;
  filter: FindingsFilter;
  findings: readonly StoredFinding[];
  nextHref: string | null;
}) {
  return (
    <PortalPage title={`Findings · ${practiceName}`} viewer={viewer} active="findings">
      <form method="get" class="filters" aria-label="Filter findings">
        <label>
          Severity
          <select name="severity">
            <option value="">any</option>
            {SEVERITIES.map((s) => (
              <option value={s} selected={filter.severity === s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category
          <select name="category">
            <option value="">any</option>
            {(Object.keys(CATEGORIES) as CategoryName[]).map((c) => (
              <option value={c} selected={filter.category === c}>
                {CATEGORIES[c].title}
              </option>
            ))}
          </select>
        </label>
        <label>
          Source
          <select name="source">
            <option value="">any</option>
            {SOURCES.map((s) => (
              <option value={s} selected={filter.source === s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Host
          <input name="host" value={filter.host ?? ""} placeholder="any" />
        </label>
        <label>
          Status
          <select name="status">
            <option value="open" selected={filter.status === "open"}>
              open
            </option>
            <option value="resolved" selected={filter.status === "resolved"}>
              resolved
            </option>
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      <p class="muted">
        {findings.length} finding{findings.length === 1 ? "" : "s"} on this page, most severe first.
      </p>
      {findings.map((f) => (
        <FindingCard finding={f} />
      ))}
      {nextHref && (
        <p>
          <a href={nextHref}>Next page →</a>
        </p>
      )}
    </PortalPage>
  );
}
