import type { ConformanceTable } from "../../test-support/conformance.js";

/** What the source parses a Set-Cookie header to (only the facts the cookie check reads), or null for "ignored". */
export type CookieVerdict = {
  readonly key: string;
  readonly secure?: boolean;
  readonly httpOnly?: boolean;
  /** undefined: no SameSite enforcement (absent or not Strict, Lax or None). */
  readonly sameSite?: "strict" | "lax" | "none" | undefined;
} | null;

const GMT = "Tue, 18 Oct 2011 07:05:03 GMT";

/** salesforce/tough-cookie's Cookie.parse and SameSite tests. */
export const TOUGH_COOKIE: ConformanceTable<string, CookieVerdict> = {
  source: {
    repository: "salesforce/tough-cookie",
    path: "lib/__tests__/parse.spec.ts (0acb1e972f483c40dd6855e5c3d48233707a5be0), lib/__tests__/sameSite.spec.ts",
    commit: "06b76ee45362807374f13cd0705875115527dedc",
    license: "BSD-3-Clause",
    note: "output undefined/null = ignored; only key, secure, httpOnly and sameSite are compared",
  },
  cases: [
    { name: "simple", input: "a=bcd", expected: { key: "a" } },
    { name: "with expiry", input: `a=bcd; Expires=${GMT}`, expected: { key: "a" } },
    {
      name: "with expiry and path",
      input: `abc="xyzzy!"; Expires=${GMT}; Path=/aBc`,
      expected: { key: "abc", httpOnly: false, secure: false },
    },
    {
      name: "with most things",
      input: `abc="xyzzy!"; Expires=${GMT}; Path=/aBc; Domain=example.com; Secure; HTTPOnly; Max-Age=1234; Foo=Bar; Baz`,
      expected: { key: "abc", secure: true, httpOnly: true },
    },
    { name: "invalid expires", input: "a=b; Expires=xyzzy", expected: { key: "a" } },
    { name: "secure-with-value", input: "a=b; Secure=xyzzy", expected: { key: "a", secure: true } },
    { name: "httponly-with-value", input: "a=b; HttpOnly=xyzzy", expected: { key: "a", httpOnly: true } },
    { name: "garbage", input: "\x08", expected: null },
    {
      name: "GAPS cookie with little whitespace",
      input:
        "GAPS=1:A1aaaaAaAAa1aaAaAaaAAAaaa1a11a:aaaAaAaAa-aaaA1-;Path=/;Expires=Thu, 17-Apr-2014 02:12:29 GMT;Secure;HttpOnly",
      expected: { key: "GAPS", secure: true, httpOnly: true },
    },
    {
      name: "lots of equal signs",
      input: "queryPref=b=c&d=e; Path=/f=g; Expires=Thu, 17 Apr 2014 02:12:29 GMT; HttpOnly",
      expected: { key: "queryPref", httpOnly: true },
    },
    { name: "spaces in value", input: "a=one two three", expected: { key: "a" } },
    { name: "non-ASCII in value", input: "farbe=weiß", expected: { key: "farbe" } },
    { name: "empty key (loose)", input: "=abc", expected: { key: "" } },
    { name: "non-existent key (loose)", input: "abc", expected: { key: "" } },
    { name: "weird format (loose)", input: "=foo=bar", expected: { key: "foo" } },
    {
      name: "way too many semicolons followed by non-semicolon",
      input: `foo=bar${";".repeat(65535)} domain=example.com`,
      expected: { key: "foo" },
    },
    { name: "way too many spaces - small one doesn't parse", input: "x x", expected: null },
    { name: "way too many spaces - large one doesn't parse", input: `x${" ".repeat(65535)}x`, expected: null },
    { name: "same-site - lax", input: "abc=xyzzy; SameSite=Lax", expected: { key: "abc", sameSite: "lax" } },
    { name: "same-site - strict", input: "abc=xyzzy; SameSite=StRiCt", expected: { key: "abc", sameSite: "strict" } },
    { name: "same-site - none", input: "abc=xyzzy; SameSite=NoNe", expected: { key: "abc", sameSite: "none" } },
    {
      name: "same-site - bad",
      input: "abc=xyzzy; SameSite=example.com",
      expected: { key: "abc", sameSite: undefined },
    },
    { name: "same-site - absent", input: "abc=xyzzy;", expected: { key: "abc", sameSite: undefined } },
    { name: "empty string", input: "", expected: null },
    {
      name: "garbage cookie treated as sameSite=none",
      input: "garbageIn=treatedAsNone; SameSite=garbage",
      expected: { key: "garbageIn", sameSite: undefined },
    },
    {
      name: "strict cookie",
      input: "strict=authorized; SameSite=sTrIcT",
      expected: { key: "strict", sameSite: "strict" },
    },
    { name: "lax cookie", input: "lax=okay; SameSite=lax", expected: { key: "lax", sameSite: "lax" } },
    { name: "normal cookie", input: "normal=whatever", expected: { key: "normal", sameSite: undefined } },
  ],
  excluded: Object.fromEntries(
    ["empty key (loose)", "non-existent key (loose)", "weird format (loose)"].map((name) => [
      name,
      'tough-cookie\'s loose mode keeps cookies without a name; RFC 6265 §5.2 ignores a Set-Cookie whose name-value pair has no "=" or an empty name (the default strict mode agrees: "x x" is ignored)',
    ]),
  ),
};
