import { CATEGORIES, type CategoryName } from "@hcs/protocol";

/**
 * The score trend as an SVG line chart, rendered on the server (it needs no script; presentation attributes only,
 * so the CSP's style-src 'self' holds). Points are the practice's grade history, oldest first.
 */
export function ScoreTrendChart({ points }: { points: readonly { computed_at: string; compliance_score: number }[] }) {
  const width = 560;
  const height = 180;
  const pad = { left: 36, right: 12, top: 12, bottom: 28 };
  if (points.length === 0) return <p class="muted">No grades yet.</p>;
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const x = (i: number) => pad.left + (points.length === 1 ? innerW / 2 : (i * innerW) / (points.length - 1));
  const y = (score: number) => pad.top + innerH - (score / 100) * innerH;
  const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.compliance_score).toFixed(1)}`);
  const first = points[0]!;
  const last = points.at(-1)!;
  const summary = `Score ${first.compliance_score} on ${first.computed_at.slice(0, 10)}, ${last.compliance_score} on ${last.computed_at.slice(0, 10)}, over ${points.length} assessments.`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Score trend. ${summary}`} class="trend">
        {[0, 25, 50, 75, 100].map((v) => (
          <g>
            <line x1={pad.left} x2={width - pad.right} y1={y(v)} y2={y(v)} stroke="#e3e8ef" stroke-width="1" />
            <text x={pad.left - 8} y={y(v) + 4} text-anchor="end" font-size="11" fill="#475467">
              {v}
            </text>
          </g>
        ))}
        <path d={path.join(" ")} fill="none" stroke="#1d5fbf" stroke-width="2.5" stroke-linejoin="round" />
        {points.map((p, i) => (
          <circle cx={x(i)} cy={y(p.compliance_score)} r="3.5" fill="#1d5fbf">
            <title>{`${p.computed_at.slice(0, 16).replace("T", " ")} UTC: ${p.compliance_score}`}</title>
          </circle>
        ))}
        <text x={pad.left} y={height - 8} font-size="11" fill="#475467">
          {first.computed_at.slice(0, 10)}
        </text>
        <text x={width - pad.right} y={height - 8} font-size="11" fill="#475467" text-anchor="end">
          {last.computed_at.slice(0, 10)}
        </text>
      </svg>
      <figcaption class="muted">{summary}</figcaption>
    </figure>
  );
}

const barColour = (score: number) => (score >= 90 ? "#1a7f37" : score >= 70 ? "#9a6700" : "#b42318");

/** One horizontal bar per scored category (score 0–100), with the category's title and weight. */
export function CategoryBars({
  categories,
}: {
  categories: Partial<Record<CategoryName, { score: number; weight: number }>>;
}) {
  const rows = (Object.keys(CATEGORIES) as CategoryName[]).filter((c) => categories[c] !== undefined);
  return (
    <table class="bars">
      <caption class="visually-hidden">Score per category</caption>
      <thead>
        <tr>
          <th scope="col">Category</th>
          <th scope="col" class="num-head">
            Score
          </th>
          <th scope="col">
            <span class="visually-hidden">Bar</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => {
          const { score, weight } = categories[c]!;
          return (
            <tr>
              <th scope="row">
                {CATEGORIES[c].title}
                <span class="muted small"> · weight {weight}</span>
              </th>
              <td class="num">{score}</td>
              <td class="bar-cell">
                <svg viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true" class="bar">
                  <rect x="0" y="0" width="100" height="8" rx="2" fill="#e3e8ef" />
                  <rect x="0" y="0" width={score} height="8" rx="2" fill={barColour(score)} />
                </svg>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
