import { describe, expect, it } from "vitest";
import { CONFORMANCE_TARGET, printConformance, runConformanceTables } from "../../test-support/conformance.js";
import { parseSetCookie } from "../cookies-check.js";
import { parseCspHeader } from "../csp.js";
import { type FramingPolicy, framingPolicy } from "../frame-protection.js";
import { isNosniff } from "../header-values.js";
import { referrerPolicyFromHeader } from "../referrer-policy.js";
import { TOUGH_COOKIE } from "./cookie-tables.js";
import { type FramingVerdict, WPT_X_FRAME_OPTIONS } from "./frame-options-tables.js";
import {
  CSP_EVALUATOR_PARSER,
  type CspVerdict,
  type HeaderLines,
  NODE_FETCH_REFERRER_POLICY,
  WPT_NOSNIFF,
} from "./header-tables.js";

/**
 * Header lines as Node's HTTP parser hands them to the scan: names lower-cased, optional whitespace around the value
 * dropped, repeated fields joined with ", " (Set-Cookie aside).
 */
function headerMap(lines: HeaderLines): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).replace(/^[\t ]+|[\t ]+$/g, "");
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

const framing = (lines: HeaderLines): FramingPolicy => {
  const headers = headerMap(lines);
  return framingPolicy(parseCspHeader(headers["content-security-policy"]), headers["x-frame-options"]);
};

function framingAgrees(lines: HeaderLines, expected: FramingVerdict): boolean {
  const policy = framing(lines);
  // A cross-origin framer in these tests is not listed anywhere, so only "any-site" lets it in.
  const allowed = expected.framer === "same-origin" ? policy !== "deny" : policy === "any-site";
  return allowed === expected.allowed;
}

// csp-evaluator's normalizeDirectiveValue: keywords ('…') and schemes (…:) in lower case, the rest as written.
const normalize = (token: string) => (token.startsWith("'") || token.endsWith(":") ? token.toLowerCase() : token);

function cspAgrees(lines: HeaderLines, expected: CspVerdict): boolean {
  const policies = parseCspHeader(lines.length === 0 ? undefined : lines.join(", "));
  return (
    policies.length === expected.length &&
    expected.every((want, i) => {
      const policy = policies[i]!;
      const sameNames = JSON.stringify([...policy.keys()].sort()) === JSON.stringify([...want.directives].sort());
      return (
        sameNames &&
        Object.entries(want.values ?? {}).every(
          ([name, values]) => JSON.stringify(policy.get(name)?.map(normalize)) === JSON.stringify(values),
        )
      );
    })
  );
}

function cookieAgrees(header: string, expected: (typeof TOUGH_COOKIE.cases)[number]["expected"]): boolean {
  const flags = parseSetCookie(header);
  if (expected === null) return flags === null;
  if (flags === null || flags.name !== expected.key) return false;
  if (expected.secure !== undefined && flags.secure !== expected.secure) return false;
  if (expected.httpOnly !== undefined && flags.httpOnly !== expected.httpOnly) return false;
  return !("sameSite" in expected) || (flags.sameSite ?? undefined) === expected.sameSite;
}

describe("HTTP security header and cookie conformance (web-platform-tests, csp-evaluator, node-fetch, tough-cookie)", () => {
  const suites = [
    [
      "X-Frame-Options and frame-ancestors",
      () => runConformanceTables("X-Frame-Options", [WPT_X_FRAME_OPTIONS], framingAgrees, framing),
    ],
    [
      "X-Content-Type-Options",
      () =>
        runConformanceTables(
          "X-Content-Type-Options",
          [WPT_NOSNIFF],
          (lines, nosniff) => isNosniff(headerMap(lines)["x-content-type-options"]) === nosniff,
          headerMap,
        ),
    ],
    [
      "Content-Security-Policy parsing",
      () =>
        runConformanceTables("Content-Security-Policy parsing", [CSP_EVALUATOR_PARSER], cspAgrees, (l) =>
          parseCspHeader(l.join(", ")).map((p) => [...p]),
        ),
    ],
    [
      "Referrer-Policy",
      () =>
        runConformanceTables(
          "Referrer-Policy header",
          [NODE_FETCH_REFERRER_POLICY],
          (lines, policy) => (referrerPolicyFromHeader(headerMap(lines)["referrer-policy"]) ?? "") === policy,
          (lines) => referrerPolicyFromHeader(headerMap(lines)["referrer-policy"]),
        ),
    ],
    ["Set-Cookie", () => runConformanceTables("Set-Cookie attributes", [TOUGH_COOKIE], cookieAgrees, parseSetCookie)],
  ] as const;

  for (const [title, run] of suites) {
    it(`${title}: agrees with at least ${CONFORMANCE_TARGET * 100} % of the applicable cases`, async () => {
      const report = await run();
      printConformance(report);
      expect(report.failures).toEqual([]);
      expect(report.passed / report.applicable).toBeGreaterThanOrEqual(CONFORMANCE_TARGET);
    });
  }
});
