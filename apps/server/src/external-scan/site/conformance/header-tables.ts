import type { ConformanceTable } from "../../test-support/conformance.js";

/** Response headers as sent: one entry per header line (`Name: value`). */
export type HeaderLines = readonly string[];

const WPT = "web-platform-tests/wpt";

/** web-platform-tests' fetch/nosniff/resources/x-content-type-options.json: header lines and the nosniff verdict. */
export const WPT_NOSNIFF: ConformanceTable<HeaderLines, boolean> = {
  source: {
    repository: WPT,
    path: "fetch/nosniff/resources/x-content-type-options.json",
    commit: "fd3b2fa06c5b4243b87b0ab138f23da058ca390e",
    license: "BSD-3-Clause",
  },
  cases: [
    ["X-Content-Type-Options: NOSNIFF", true],
    ["x-content-type-OPTIONS: nosniff", true],
    ["X-Content-Type-Options: nosniff,,@#$#%%&^&^*()()11!", true],
    ["X-Content-Type-Options: @#$#%%&^&^*()()11!,nosniff", false],
    ["X-Content-Type-Options: nosniff\r\nX-Content-Type-Options: no", true],
    ["X-Content-Type-Options: no\r\nX-Content-Type-Options: nosniff", false],
    ["X-Content-Type-Options:\r\nX-Content-Type-Options: nosniff", false],
    ["X-Content-Type-Options: ,nosniff", false],
    ["X-Content-Type-Options: nosniff\u000C", true],
    ["X-Content-Type-Options: nosniff\u000B", false],
    ["X-Content-Type-Options: nosniff\u000B,nosniff", false],
    ["X-Content-Type-Options: 'NosniFF'", false],
    ['X-Content-Type-Options: "nosniFF"', false],
    ["Content-Type-Options: nosniff", false],
  ].map(([input, nosniff]) => ({
    name: JSON.stringify(input),
    input: String(input).split("\r\n"),
    expected: Boolean(nosniff),
  })),
  excluded: {
    [JSON.stringify("X-Content-Type-Options: nosniff\u000C")]:
      'Fetch strips only HTTP tab or space from header values, so U+000C stays part of the value ("nosniff\\f" is not nosniff); browsers\' HTTP parsers drop the byte first, which an evaluator of parsed headers cannot see',
  },
};

/** A CSP header set and the directive names of each policy it yields (values where the source checks them). */
export type CspVerdict = readonly {
  readonly directives: readonly string[];
  readonly values?: Readonly<Record<string, readonly string[]>>;
}[];

const CSP2_FEATURES =
  "default-src 'none';" +
  "script-src 'nonce-unsafefoobar' 'unsafe-eval'   'unsafe-inline' \n" +
  "https://example.com/foo.js foo.bar;      " +
  "object-src 'none';" +
  "img-src 'self' https: data: blob:;" +
  "style-src 'self' 'unsafe-inline' 'sha256-1DCfk1NYWuHMfoobarfoobar=';" +
  "font-src *;" +
  "child-src *.example.com:9090;" +
  "upgrade-insecure-requests;\n" +
  "report-uri /csp/test";
const ALL_NINE = [
  "default-src",
  "script-src",
  "object-src",
  "img-src",
  "style-src",
  "font-src",
  "child-src",
  "upgrade-insecure-requests",
  "report-uri",
];

/** google/csp-evaluator's parser tests: each array entry is one Content-Security-Policy header. */
export const CSP_EVALUATOR_PARSER: ConformanceTable<HeaderLines, CspVerdict> = {
  source: {
    repository: "google/csp-evaluator",
    path: "test/parser_test.ts",
    commit: "cc90b371f600fe6a2c9a16f2a0dc5cc4bf4b34cf",
    license: "Apache-2.0",
    note: "values compared after csp-evaluator's normalizeDirectiveValue (keywords and schemes lower-cased)",
  },
  cases: [
    {
      name: "CspParser",
      input: [CSP2_FEATURES],
      expected: [
        {
          directives: ALL_NINE,
          values: {
            "default-src": ["'none'"],
            "script-src": [
              "'nonce-unsafefoobar'",
              "'unsafe-eval'",
              "'unsafe-inline'",
              "https://example.com/foo.js",
              "foo.bar",
            ],
            "img-src": ["'self'", "https:", "data:", "blob:"],
            "upgrade-insecure-requests": [],
            "report-uri": ["/csp/test"],
          },
        },
      ],
    },
    {
      name: "CspParserDuplicateDirectives",
      input: ["default-src 'none';default-src foo.bar;object-src 'none';OBJECT-src foo.bar;"],
      expected: [
        { directives: ["default-src", "object-src"], values: { "default-src": ["'none'"], "object-src": ["'none'"] } },
      ],
    },
    {
      name: "CspParserMixedCaseKeywords",
      input: ["DEFAULT-src 'NONE';img-src 'sElf' HTTPS: Example.com/CaseSensitive;"],
      expected: [
        {
          directives: ["default-src", "img-src"],
          values: { "default-src": ["'none'"], "img-src": ["'self'", "https:", "Example.com/CaseSensitive"] },
        },
      ],
    },
    {
      name: "ParseMultipleDirectivesSimple",
      input: [
        "default-src 'self' http://example.com http://example.net; connect-src 'none'; ",
        "connect-src http://example.com/; script-src http://example.com/; ",
      ],
      expected: [
        { directives: ["default-src", "connect-src"], values: { "connect-src": ["'none'"] } },
        { directives: ["connect-src", "script-src"], values: { "script-src": ["http://example.com/"] } },
      ],
    },
    {
      name: "CspParserMultipleDirectivesRFC2616",
      input: [
        CSP2_FEATURES.replace("default-src 'none';", "default-src 'none', default-src 'nonce-foobar';").replace(
          "foo.bar;      ",
          "foo.bar, script-src https:;      ",
        ),
      ],
      expected: [
        { directives: ["default-src"], values: { "default-src": ["'none'"] } },
        { directives: ["default-src", "script-src"], values: { "default-src": ["'nonce-foobar'"] } },
        { directives: ALL_NINE.slice(1), values: { "script-src": ["https:"] } },
      ],
    },
    {
      name: "CspParserMultipleDirectivesMixed",
      input: [`${CSP2_FEATURES}, default-src 'self'`, "default-src 'nonce-foobar';script-src https:"],
      expected: [
        { directives: ALL_NINE },
        { directives: ["default-src"], values: { "default-src": ["'self'"] } },
        { directives: ["default-src", "script-src"], values: { "script-src": ["https:"] } },
      ],
    },
  ],
};

/** node-fetch's parseReferrerPolicyFromHeader tests: Referrer-Policy header lines and the policy ("" for none). */
export const NODE_FETCH_REFERRER_POLICY: ConformanceTable<HeaderLines, string> = {
  source: {
    repository: "node-fetch/node-fetch",
    path: "test/referrer.js (parseReferrerPolicyFromHeader)",
    commit: "463792f04cc48c4a43507bd0530cba720bff749c",
    license: "MIT",
  },
  cases: [
    { name: "no header", input: [], expected: "" },
    { name: "empty header", input: [""], expected: "" },
    { name: "no-referrer", input: ["no-referrer"], expected: "no-referrer" },
    { name: "no-referrer unsafe-url", input: ["no-referrer unsafe-url"], expected: "unsafe-url" },
    { name: "foo no-referrer bar", input: ["foo no-referrer bar"], expected: "no-referrer" },
    { name: "foo no-referrer unsafe-url bar", input: ["foo no-referrer unsafe-url bar"], expected: "unsafe-url" },
    { name: "no-referrer + empty", input: ["no-referrer", ""], expected: "no-referrer" },
    { name: "no-referrer + unsafe-url", input: ["no-referrer", "unsafe-url"], expected: "unsafe-url" },
    {
      name: "no-referrer foo + bar unsafe-url wow",
      input: ["no-referrer foo", "bar unsafe-url wow"],
      expected: "unsafe-url",
    },
    { name: "no-referrer unsafe-url + foo bar", input: ["no-referrer unsafe-url", "foo bar"], expected: "unsafe-url" },
  ].map((c) => ({ ...c, input: c.input.map((v) => `Referrer-Policy: ${v}`) })),
  excluded: Object.fromEntries(
    [
      "no-referrer unsafe-url",
      "foo no-referrer bar",
      "foo no-referrer unsafe-url bar",
      "no-referrer foo + bar unsafe-url wow",
      "no-referrer unsafe-url + foo bar",
    ].map((name) => [
      name,
      "node-fetch splits the header on spaces as well as commas; Referrer Policy §8.1 splits on commas only (as Chromium's ReferrerPolicyFromHeader does), so a space-separated list is one unknown token and no policy",
    ]),
  ),
};
