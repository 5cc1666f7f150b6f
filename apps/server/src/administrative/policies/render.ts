import { createHash } from "node:crypto";
import { hipaaControl } from "@hcs/protocol";
import { addYears } from "../calendar-date.js";
import type { PracticeFacts } from "../practice-facts.js";
import { officer, type PolicyDefinition } from "./policy.js";

/** Every 45 CFR citation a text makes ("164.308(a)(1)(ii)(A)", "164.406"). */
export function citationsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\b164\.\d{3}(?:\([a-zA-Z0-9]+\))*/g)].map((m) => m[0]))];
}

/** Facts a policy names that the profile does not give yet: to be resolved before the policy is adopted. */
function gapsOf(f: PracticeFacts): string[] {
  const gaps: string[] = [];
  if (!f.profile.security_officer) gaps.push("Name the Security Official in the practice profile (164.308(a)(2)).");
  if (!f.profile.privacy_officer)
    gaps.push("Name the Privacy Official (164.530(i)); until then the Security Official is assumed.");
  if (f.systems.length === 0)
    gaps.push("Run the internal scanner so the systems holding ePHI are listed from evidence.");
  return gaps;
}

/** One policy as Markdown, written from the practice's facts (pure). */
export function renderPolicyMarkdown(
  def: PolicyDefinition,
  f: PracticeFacts,
  meta: { readonly version: number; readonly generated_on: string },
): string {
  const lines = [
    `# Policy ${def.number}: ${def.title}`,
    "",
    `**${f.name}** (NPI ${f.npi}) · version ${meta.version} · effective ${meta.generated_on} · review by ${addYears(meta.generated_on, 1)}`,
    "",
    `Owner: ${officer(f, "security_officer")}`,
    "",
    "## Purpose",
    "",
    def.purpose,
    "",
    "## Scope",
    "",
    `This policy applies to ${f.profile.workforce_size ? `all ${f.profile.workforce_size} members of the workforce` : "the whole workforce"} of ${f.name} (employees, contractors, volunteers and trainees) and to every system, device and location that creates, receives, maintains or transmits protected health information.`,
    "",
    "## Policy",
    "",
    ...def.policy(f).map((s) => `- ${s}`),
    "",
    "## Procedures",
    "",
    ...def.procedures(f).map((s, i) => `${i + 1}. ${s}`),
    "",
    "## Enforcement",
    "",
    "Violations are handled under Policy 2, Sanctions (164.308(a)(1)(ii)(C)).",
    "",
    "## Documentation",
    "",
    "This policy and the records it requires are kept for six years from creation or last effective date and reviewed every 12 months (164.316(b)(2)(i), 164.316(b)(2)(iii)).",
    "",
    "## Regulatory references",
    "",
    ...def.citations.map((c) => `- 45 CFR ${c}: ${hipaaControl(c)?.title ?? ""}`),
  ];
  const gaps = gapsOf(f);
  if (gaps.length > 0) lines.push("", "## Before adoption", "", ...gaps.map((g) => `- ${g}`));
  return `${lines.join("\n")}\n`;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const inline = (s: string) => escapeHtml(s).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>");

/**
 * The Markdown subset the policies are written in (headings, paragraphs, bullet and numbered lists, bold) as a
 * standalone HTML page; every text is escaped, so a practice name cannot inject markup.
 */
/** The policy page's one stylesheet, inline so the download stands alone. */
const POLICY_CSS =
  "body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;line-height:1.5;padding:0 1rem}";

/**
 * The policy page's Content-Security-Policy, sent with every HTML download: nothing loads or runs but its own
 * stylesheet (by hash), so a practice's name or an official's that slipped past the escaping could not run either.
 */
export const POLICY_HTML_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(POLICY_CSS, "utf8").digest("base64")}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export function policyHtml(markdown: string, title: string): string {
  const out: string[] = [];
  let list: "ul" | "ol" | null = null;
  const close = () => {
    if (list) out.push(`</${list}>`);
    list = null;
  };
  for (const line of markdown.split("\n")) {
    const h = /^(#{1,3}) (.*)$/.exec(line);
    const bullet = /^- (.*)$/.exec(line);
    const numbered = /^\d+\. (.*)$/.exec(line);
    if (h) {
      close();
      out.push(`<h${h[1]!.length}>${inline(h[2]!)}</h${h[1]!.length}>`);
    } else if (bullet || numbered) {
      const kind = bullet ? "ul" : "ol";
      if (list !== kind) {
        close();
        out.push(`<${kind}>`);
        list = kind;
      }
      out.push(`<li>${inline((bullet ?? numbered)![1]!)}</li>`);
    } else if (line.trim() === "") {
      close();
    } else {
      close();
      out.push(`<p>${inline(line)}</p>`);
    }
  }
  close();
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${POLICY_CSS}</style></head><body>\n${out.join("\n")}\n</body></html>\n`;
}
