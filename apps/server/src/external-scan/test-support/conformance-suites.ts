import { DKIMPY, GO_MSGAUTH_DKIM_KEYS, MAILAUTH_DKIM_KEYS } from "../email/conformance/dkim-tables.js";
import { CHECKDMARC_DMARC, MAILAUTH_DMARC } from "../email/conformance/dmarc-tables.js";
import {
  CHECKDMARC_MTA_STS,
  CHECKDMARC_TLS_RPT,
  POSTFIX_MTA_STS_RESOLVER,
} from "../email/conformance/mail-transport-tables.js";
import { RFC7208_EXCLUDED } from "../email/conformance/rfc7208-exclusions.js";
import { TOUGH_COOKIE } from "../site/conformance/cookie-tables.js";
import { WPT_X_FRAME_OPTIONS } from "../site/conformance/frame-options-tables.js";
import { CSP_EVALUATOR_PARSER, NODE_FETCH_REFERRER_POLICY, WPT_NOSNIFF } from "../site/conformance/header-tables.js";
import type { Provenance } from "./conformance.js";

/** One conformance source as CHECKS.md lists it: where the cases come from and which do not apply, and why. */
export interface DocumentedSource {
  readonly suite: string;
  readonly source: Provenance;
  readonly cases: number | "all";
  readonly excluded: Readonly<Record<string, string>>;
}

const table = (
  suite: string,
  t: { source: Provenance; cases: readonly unknown[]; excluded?: Record<string, string> },
) => ({ suite, source: t.source, cases: t.cases.length, excluded: t.excluded ?? {} }) satisfies DocumentedSource;

/** Every conformance source the external-scan tests run (an explicit list: a new table is a visible change here). */
export const CONFORMANCE_SOURCES: readonly DocumentedSource[] = [
  {
    suite: "RFC 7208 SPF",
    source: {
      repository: "sdgathman/pyspf",
      path: "test/rfc7208-tests.yml (openspf release 2014.04), read from ../shared/data/conformance/",
      commit: "1042e9e",
      license: "BSD-3-Clause-style (rfc7208-tests.LICENSE)",
    },
    cases: "all",
    excluded: RFC7208_EXCLUDED,
  },
  table("DMARC records", CHECKDMARC_DMARC),
  table("DMARC records", MAILAUTH_DMARC),
  table("DKIM key records", MAILAUTH_DKIM_KEYS),
  table("DKIM key records", DKIMPY),
  table("DKIM key records", GO_MSGAUTH_DKIM_KEYS),
  table("MTA-STS records", CHECKDMARC_MTA_STS),
  table("MTA-STS records", POSTFIX_MTA_STS_RESOLVER),
  table("TLS-RPT records", CHECKDMARC_TLS_RPT),
  table("X-Frame-Options", WPT_X_FRAME_OPTIONS),
  table("X-Content-Type-Options", WPT_NOSNIFF),
  table("Content-Security-Policy parsing", CSP_EVALUATOR_PARSER),
  table("Referrer-Policy header", NODE_FETCH_REFERRER_POLICY),
  table("Set-Cookie attributes", TOUGH_COOKIE),
];

export const CONFORMANCE_DOC_START =
  "<!-- conformance-sources:start (generated from test-support/conformance-suites.ts) -->";
export const CONFORMANCE_DOC_END = "<!-- conformance-sources:end -->";

/** CHECKS.md's list of conformance sources and exclusions, rendered from the tables. */
export function renderConformanceSources(): string {
  const lines = CONFORMANCE_SOURCES.flatMap((s) => {
    const cases = s.cases === "all" ? "every test" : `${s.cases} cases`;
    const excluded = Object.entries(s.excluded).map(([name, reason]) => `  - excluded \`${name}\`: ${reason}`);
    return [
      `- **${s.suite}**: ${s.source.repository} \`${s.source.path}\` @ ${s.source.commit} (${cases}${s.source.license ? `, ${s.source.license}` : ""})`,
      ...excluded,
    ];
  });
  return [CONFORMANCE_DOC_START, ...lines, CONFORMANCE_DOC_END].join("\n");
}
