import type { ConformanceTable } from "../../test-support/conformance.js";
import type { HeaderLines } from "./header-tables.js";

/** Whether a frame from the page's own origin, or from another origin, may show the page. */
export type FramingVerdict = { readonly framer: "same-origin" | "cross-origin"; readonly allowed: boolean };

const xfo = (...values: string[]) => values.map((v) => `X-Frame-Options: ${v}`);
const same = (allowed: boolean): FramingVerdict => ({ framer: "same-origin", allowed });
const cross = (allowed: boolean): FramingVerdict => ({ framer: "cross-origin", allowed });

/**
 * web-platform-tests' x-frame-options/ tests: the value(s) support/xfo.py sends (value, value2, csp_value) and
 * whether the frame loads. The nested-frame cases of sameorigin.sub.html are left out (the scan judges one page).
 */
export const WPT_X_FRAME_OPTIONS: ConformanceTable<HeaderLines, FramingVerdict> = {
  source: {
    repository: "web-platform-tests/wpt",
    path: "x-frame-options/{deny,invalid,sameorigin,multiple,commas}.sub.html",
    commit:
      "deny/sameorigin/commas 3989c90af2c7804a252ee64eb9cfd9a2b5566be3, invalid 2857fcc27670682d9289586feb92d3df241838c4, multiple 1e2d2fc69aa436cfd74bd862b1a022060047823d",
    license: "BSD-3-Clause",
  },
  cases: [
    { name: "`XFO: DENY` blocks same-origin framing", input: xfo("DENY"), expected: same(false) },
    { name: "`XFO: DENY` blocks cross-origin framing", input: xfo("DENY"), expected: cross(false) },
    { name: "`XFO: denY` blocks same-origin framing", input: xfo("denY"), expected: same(false) },
    { name: '`XFO: "DENY"` allows same-origin framing', input: xfo('"DENY"'), expected: same(true) },
    { name: "`XFO: denY` blocks cross-origin framing", input: xfo("denY"), expected: cross(false) },
    { name: '`XFO: "DENY"` allows cross-origin framing', input: xfo('"DENY"'), expected: cross(true) },
    {
      name: "`XFO: DENY` blocks framing when CSP is present without a frame-ancestors directive",
      input: [...xfo("DENY"), "Content-Security-Policy: default-src 'self'"],
      expected: same(false),
    },
    {
      name: "`XFO: DENY` does not block framing when CSP is present with a frame-ancestors directive",
      input: [...xfo("DENY"), "Content-Security-Policy: frame-ancestors 'self'"],
      expected: same(true),
    },
    { name: "`XFO: INVALID` allows same-origin framing", input: xfo("INVALID"), expected: same(true) },
    { name: "`XFO: INVALID` allows cross-origin framing", input: xfo("INVALID"), expected: cross(true) },
    {
      name: "`XFO: ALLOW-FROM` allows same-origin framing",
      input: xfo("ALLOW-FROM https://example.com/"),
      expected: same(true),
    },
    {
      name: "`XFO: ALLOW-FROM` allows cross-origin framing",
      input: xfo("ALLOW-FROM https://example.com/"),
      expected: cross(true),
    },
    {
      name: "`XFO: ALLOW-FROM=` allows same-origin framing",
      input: xfo("ALLOW-FROM=https://example.com/"),
      expected: same(true),
    },
    {
      name: "`XFO: ALLOW-FROM=` allows cross-origin framing",
      input: xfo("ALLOW-FROM=https://example.com/"),
      expected: cross(true),
    },
    { name: "`XFO: ALLOWALL` allows same-origin framing", input: xfo("ALLOWALL"), expected: same(true) },
    { name: "`XFO: ALLOWALL` allows cross-origin framing", input: xfo("ALLOWALL"), expected: cross(true) },
    { name: "Empty `XFO:` allows same-origin framing", input: xfo(""), expected: same(true) },
    { name: "Empty `XFO:` allows cross-origin framing", input: xfo(""), expected: cross(true) },
    { name: "`XFO: SAMEORIGIN` allows same-origin framing", input: xfo("SAMEORIGIN"), expected: same(true) },
    { name: "`XFO: sameOriGin` allows same-origin framing", input: xfo("sameOriGin"), expected: same(true) },
    { name: '`XFO: "SAMEORIGIN"` allows same-origin framing', input: xfo('"SAMEORIGIN"'), expected: same(true) },
    { name: "`XFO: SAMEORIGIN` blocks cross-origin framing", input: xfo("SAMEORIGIN"), expected: cross(false) },
    { name: "`XFO: sameOriGin` blocks cross-origin framing", input: xfo("sameOriGin"), expected: cross(false) },
    { name: '`XFO: "SAMEORIGIN"` allows cross-origin framing', input: xfo('"SAMEORIGIN"'), expected: cross(true) },
    {
      name: "`XFO: SAMEORIGIN; XFO: SAMEORIGIN` allows same-origin framing",
      input: xfo("SAMEORIGIN", "SAMEORIGIN"),
      expected: same(true),
    },
    {
      name: "`XFO: INVALID; XFO: SAMEORIGIN` allows same-origin framing",
      input: xfo("INVALID", "SAMEORIGIN"),
      expected: same(true),
    },
    {
      name: "`XFO: SAMEORIGIN; XFO: INVALID` allows same-origin framing",
      input: xfo("SAMEORIGIN", "INVALID"),
      expected: same(true),
    },
    {
      name: "`XFO: SAMEORIGIN,SAMEORIGIN` allows same-origin framing",
      input: xfo("SAMEORIGIN,SAMEORIGIN"),
      expected: same(true),
    },
    {
      name: "`XFO: INVALID,SAMEORIGIN` allows same-origin framing",
      input: xfo("INVALID,SAMEORIGIN"),
      expected: same(true),
    },
    {
      name: "`XFO: SAMEORIGIN,INVALID` allows same-origin framing",
      input: xfo("SAMEORIGIN,INVALID"),
      expected: same(true),
    },
    {
      name: "`XFO: SAMEORIGIN; XFO: DENY` blocks same-origin framing",
      input: xfo("SAMEORIGIN", "DENY"),
      expected: same(false),
    },
    {
      name: "`XFO: DENY; XFO: SAMEORIGIN` blocks same-origin framing",
      input: xfo("DENY", "SAMEORIGIN"),
      expected: same(false),
    },
    {
      name: "`XFO: SAMEORIGIN; XFO: SAMEORIGIN` blocks cross-origin framing",
      input: xfo("SAMEORIGIN", "SAMEORIGIN"),
      expected: cross(false),
    },
    { name: "`XFO: SAMEORIGIN,DENY` blocks same-origin framing", input: xfo("SAMEORIGIN,DENY"), expected: same(false) },
    { name: "`XFO: DENY,SAMEORIGIN` blocks same-origin framing", input: xfo("DENY,SAMEORIGIN"), expected: same(false) },
    {
      name: "`XFO: SAMEORIGIN,SAMEORIGIN` blocks cross-origin framing",
      input: xfo("SAMEORIGIN,SAMEORIGIN"),
      expected: cross(false),
    },
    {
      name: "SAMEORIGIN,DENY blocks same-origin framing (commas)",
      input: xfo("SAMEORIGIN,DENY"),
      expected: same(false),
    },
    { name: ",SAMEORIGIN,,DENY, blocks same-origin framing", input: xfo(",SAMEORIGIN,,DENY,"), expected: same(false) },
    { name: 'SAMEORIGIN,"DENY" allows same-origin framing', input: xfo('SAMEORIGIN,"DENY"'), expected: same(true) },
    { name: '"SAMEORIGIN,DENY" allows same-origin framing', input: xfo('"SAMEORIGIN,DENY"'), expected: same(true) },
    {
      name: "  SAMEORIGIN,    DENY blocks same-origin framing",
      input: xfo("  SAMEORIGIN,    DENY"),
      expected: same(false),
    },
  ],
};
