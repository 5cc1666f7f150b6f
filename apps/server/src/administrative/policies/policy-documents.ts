import { randomBytes } from "node:crypto";
import { ServiceError } from "../../errors.js";
import type { ServiceDeps } from "../../services/deps.js";
import { iso } from "../../services/deps.js";
import { addYears, dateOf } from "../calendar-date.js";
import { REVIEW_PERIOD_YEARS } from "../evaluation.js";
import { readPracticeFacts } from "../practice-facts.js";
import { POLICIES, policyByNumber } from "./catalogue.js";
import type { PolicyEntry, PolicyList } from "./policy-schemas.js";
import { citationsIn, POLICY_HTML_CSP, policyHtml, renderPolicyMarkdown } from "./render.js";

/** Where a policy version is downloaded: Group A's path, or Group B's (`/v1/a2a/…`). */
export type DownloadBase = (npi: string, n: number) => string;
export const groupADownload: DownloadBase = (npi, n) => `/v1/policies/${n}?npi=${npi}`;
export const groupBDownload: DownloadBase = (npi, n) => `/v1/a2a/policies/${npi}/${n}`;

/** The 24 policies of a practice with the state of each (latest version, how many, due for review). */
export async function listPolicies(
  deps: ServiceDeps,
  npi: string,
  link: DownloadBase,
  generated: number[] = [],
): Promise<PolicyList> {
  const rows = await deps.store.db
    .selectFrom("policy_documents")
    .select(["policy_number", "version", "generated_at"])
    .where("npi", "=", npi)
    .execute();
  const today = dateOf(deps.now());
  const policies = POLICIES.map((p): PolicyEntry => {
    const mine = rows
      .filter((r) => Number(r.policy_number) === p.number)
      .sort((a, b) => Number(b.version) - Number(a.version));
    const latest = mine[0];
    const reviewDue = latest ? addYears(latest.generated_at.slice(0, 10), REVIEW_PERIOD_YEARS) : null;
    const base = link(npi, p.number);
    const sep = base.includes("?") ? "&" : "?";
    return {
      number: p.number,
      slug: p.slug,
      title: p.title,
      citations: [...p.citations],
      status: !latest ? "not_generated" : reviewDue! < today ? "out_of_date" : "current",
      version: latest ? Number(latest.version) : null,
      versions: mine.length,
      generated_at: latest?.generated_at ?? null,
      review_due_on: reviewDue,
      download: latest ? { markdown: `${base}${sep}format=markdown`, html: `${base}${sep}format=html` } : null,
    };
  });
  return { npi, current: policies.filter((p) => p.status === "current").length, total: 24, generated, policies };
}

/**
 * Writes a new version of each policy asked for, from the practice's facts as they are now; earlier versions stay
 * (the six-year history of 164.316(b)(2)(i)). Each version is counted as a generated document.
 */
export async function generatePolicies(deps: ServiceDeps, npi: string, numbers: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(numbers)].sort((a, b) => a - b);
  const facts = await readPracticeFacts(deps, npi);
  const now = deps.now();
  await deps.store.db.transaction().execute(async (trx) => {
    const latest = await trx
      .selectFrom("policy_documents")
      .select(["policy_number", (eb) => eb.fn.max("version").as("v")])
      .where("npi", "=", npi)
      .groupBy("policy_number")
      .execute();
    for (const n of wanted) {
      const def = policyByNumber(n)!;
      const version = Number(latest.find((l) => Number(l.policy_number) === n)?.v ?? 0) + 1;
      const markdown = renderPolicyMarkdown(def, facts, { version, generated_on: dateOf(now) });
      const id = `pol_${randomBytes(8).toString("hex")}`;
      await trx
        .insertInto("policy_documents")
        .values({
          id,
          npi,
          policy_number: n,
          version,
          title: def.title,
          markdown,
          citations: JSON.stringify(citationsIn(markdown)),
          generated_at: iso(now),
        })
        .execute();
      await trx
        .insertInto("documents")
        .values({ id, npi, kind: "policy", created_at: iso(now) })
        .execute();
    }
  });
  return wanted;
}

export interface PolicyDownload {
  readonly contentType: string;
  readonly body: string;
  readonly filename: string;
  /** Headers the download is served with: never sniffed as another type; the HTML page under its own CSP. */
  readonly headers: Readonly<Record<string, string>>;
}

/** One version (default the latest) of a policy as Markdown or HTML; not_found before it was generated. */
export async function policyDownload(
  deps: ServiceDeps,
  npi: string,
  n: number,
  format: "markdown" | "html",
  version?: number,
): Promise<PolicyDownload> {
  let q = deps.store.db
    .selectFrom("policy_documents")
    .select(["markdown", "title", "version"])
    .where("npi", "=", npi)
    .where("policy_number", "=", n);
  if (version !== undefined) q = q.where("version", "=", version);
  const row = await q.orderBy("version", "desc").limit(1).executeTakeFirst();
  if (!row)
    throw new ServiceError("not_found", `policy ${n}${version ? ` version ${version}` : ""} has not been generated`);
  const slug = policyByNumber(n)!.slug;
  const filename = `policy-${String(n).padStart(2, "0")}-${slug}-v${row.version}.${format === "html" ? "html" : "md"}`;
  return format === "html"
    ? {
        contentType: "text/html; charset=utf-8",
        body: policyHtml(row.markdown, `Policy ${n}: ${row.title}`),
        filename,
        headers: { "Content-Security-Policy": POLICY_HTML_CSP, "X-Content-Type-Options": "nosniff" },
      }
    : {
        contentType: "text/markdown; charset=utf-8",
        body: row.markdown,
        filename,
        headers: { "X-Content-Type-Options": "nosniff" },
      };
}
