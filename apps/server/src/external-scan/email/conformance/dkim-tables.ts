import { createPublicKey } from "node:crypto";
import type { ConformanceTable } from "../../test-support/conformance.js";

/** A DKIM key record, or a bare tag-list (the syntax key records and signatures share, RFC 6376 §3.2). */
export type DkimInput = { readonly record: string } | { readonly tagList: string };

/**
 * What the source expects: a key verifiers use (with the checked facts), a key they reject as too short (RFC 8301),
 * a key record they cannot use; or, for a tag-list, its tags or an error.
 */
export type DkimVerdict =
  | {
      readonly key: "usable";
      readonly keyType?: "rsa" | "ed25519";
      readonly rsaBits?: number;
      readonly testing?: boolean;
    }
  | { readonly key: "weak" }
  | { readonly key: "unusable" }
  | { readonly tags: Readonly<Record<string, string>>; readonly count?: number }
  | { readonly tagListError: true };

// mailauth's test/fixtures/public-rsa.pem, public-small.pem and public-ed25519.pem (commits e0edf6b, 8e0f2dd).
const MAILAUTH_RSA_2048 =
  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAlKR5GLoozuXIcITzOzpLef4bWHGhD5OBNyhCZ0aCCkf9CKCvpAUYLmiKI2Vpe4qNVQRS1stLZoBTPG3L/RAdKV4HjVpK4Dvs67EmG/dBpI9ZowvEK3ggRwjOavuT4lqFCD+djxXmR/lz9fiXZ0j2FReb23qRSmMO+fOYDrmFHWc3SpcVlrB4Tu3fKDjNxVaxlresOLccRAmVAOmacHmayjDROTw/XilzErJj+uVAicGYfs10NjPz+EL4qgb2QyfXTvUj5fIZXepdd4q1fHDVe5NHHgbnMJHPz2YtqV87gljVUN2vgN3nm8PgkCU4ej/AA5dsNLEoOYUk1K8qke/UuwIDAQAB";
const MAILAUTH_RSA_512 =
  "MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBALJAzaT5FwXdsMJxkqi4ZKcBPW+Acyi5fDMF/ozF+lwYI98Pz6iMCy+PPG4YdxT77D7cV38iDnJhxc3QOmUoN4sCAwEAAQ==";
const MAILAUTH_ED25519_SPKI = "MCowBQYDK2VwAyEANwX0YghfQX/TRxQSYEoLKT7Rtut+lQ/iCYexN/oL4xA=";

// The encodings mailauth's test/helpers/dkim-reference.js derives: SPKI as is, a bare PKCS#1 RSAPublicKey, and
// the raw 32-byte Ed25519 key (RFC 8463) that ends the SPKI.
const spki = MAILAUTH_RSA_2048;
const pkcs1 = createPublicKey({ key: Buffer.from(spki, "base64"), format: "der", type: "spki" })
  .export({ format: "der", type: "pkcs1" })
  .toString("base64");
const edRaw = Buffer.from(MAILAUTH_ED25519_SPKI, "base64").subarray(-32).toString("base64");
const rsaRec = `v=DKIM1; k=rsa; p=${spki}`;

/** postalsys/mailauth's DKIM verification cases about key records, with the strict mode's verdicts. */
export const MAILAUTH_DKIM_KEYS: ConformanceTable<DkimInput, DkimVerdict> = {
  source: {
    repository: "postalsys/mailauth",
    path: "test/dkim/verify-rfc-compliance-test.js",
    commit: "08da8419de7aa987cd04a366c3d04fe6b858d4d9",
    license: "MIT",
    note: "strict mode: pass = usable, policy weak-key = weak, neutral for a key reason = unusable; a sha256 signature unless noted",
  },
  cases: [
    {
      name: "a valid rsa-sha256 signature",
      input: { record: rsaRec },
      expected: { key: "usable", keyType: "rsa", rsaBits: 2048 },
    },
    {
      name: "a valid ed25519-sha256 signature",
      input: { record: `v=DKIM1; k=ed25519; p=${edRaw}` },
      expected: { key: "usable", keyType: "ed25519" },
    },
    {
      name: "a signature with a hash the key h= tag does not list",
      input: { record: `v=DKIM1; h=sha1; k=rsa; p=${spki}` },
      expected: { key: "unusable" },
    },
    {
      name: "a signature with a key h= tag that lists the hash",
      input: { record: `v=DKIM1; h=sha1:sha256; k=rsa; p=${spki}` },
      expected: { key: "usable" },
    },
    {
      name: "a key that is not meant for email",
      input: { record: `v=DKIM1; s=foo; k=rsa; p=${spki}` },
      expected: { key: "unusable" },
    },
    {
      name: "a key with s=email",
      input: { record: `v=DKIM1; s=email; k=rsa; p=${spki}` },
      expected: { key: "usable" },
    },
    {
      name: "the d= domain in i= with a key that has t=s",
      input: { record: `v=DKIM1; t=s; k=rsa; p=${spki}` },
      expected: { key: "usable" },
    },
    {
      name: "a key with a duplicate tag",
      input: { record: `v=DKIM1; k=rsa; p=; p=${spki}` },
      expected: { key: "unusable" },
    },
    {
      name: "a key with v= that is not the first tag",
      input: { record: `k=rsa; v=DKIM1; p=${spki}` },
      expected: { key: "unusable" },
    },
    {
      name: "a key with v=dkim1 in lower case",
      input: { record: `v=dkim1; k=rsa; p=${spki}` },
      expected: { key: "unusable" },
    },
    { name: "an ed25519 key without k=", input: { record: `v=DKIM1; p=${edRaw}` }, expected: { key: "unusable" } },
    {
      name: "a 512 bit RSA key",
      input: { record: `v=DKIM1; k=rsa; p=${MAILAUTH_RSA_512}` },
      expected: { key: "weak" },
    },
    {
      name: "a key published as a bare RSAPublicKey",
      input: { record: `v=DKIM1; k=rsa; p=${pkcs1}` },
      expected: { key: "usable", keyType: "rsa", rsaBits: 2048 },
    },
    {
      name: "a key with an apostrophe in n=",
      input: { record: `v=DKIM1; k=rsa; n=it's; p=${spki}` },
      expected: { key: "usable" },
    },
    {
      name: "a key with a parenthesis in n=",
      input: { record: `v=DKIM1; k=rsa; n=see(below; p=${spki}` },
      expected: { key: "usable" },
    },
    {
      name: "a key with a backslash in n=",
      input: { record: `v=DKIM1; k=rsa; n=a\\b; p=${spki}` },
      expected: { key: "usable" },
    },
    {
      name: "a key in testing mode",
      input: { record: `v=DKIM1; t=y; k=rsa; p=${spki}` },
      expected: { key: "usable", testing: true },
    },
  ],
};

/** kitterma/dkimpy-mirror: the tag-list parser's tests and the key records of its verification tests. */
export const DKIMPY: ConformanceTable<DkimInput, DkimVerdict> = {
  source: {
    repository: "kitterma/dkimpy-mirror",
    path: "dkim/tests/test_util.py (906980f57a308f69171e885628110ae136d7777c), dkim/tests/test_dkim.py",
    commit: "0c6fdbf7c677e9b52c9233b625735baa79d52bea",
    license: "zlib-style (see the files' headers)",
    note: "parse_tag_value raising = tagListError; the test_dkim key records verify (the 512-bit one only with minkey=512)",
  },
  cases: [
    { name: "test_single", input: { tagList: "foo=bar" }, expected: { tags: { foo: "bar" } } },
    { name: "test_trailing_separator_ignored", input: { tagList: "foo=bar;" }, expected: { tags: { foo: "bar" } } },
    { name: "test_multiple", input: { tagList: "foo=bar;baz=foo" }, expected: { tags: { foo: "bar", baz: "foo" } } },
    {
      name: "test_value_with_equals",
      input: { tagList: "foo=bar;baz=foo=bar" },
      expected: { tags: { foo: "bar", baz: "foo=bar" } },
    },
    {
      name: "test_whitespace_is_stripped",
      input: { tagList: "   foo  \t= bar;\tbaz=  f oo=bar  " },
      expected: { tags: { foo: "bar", baz: "f oo=bar" } },
    },
    { name: "test_missing_value_is_an_error", input: { tagList: "foo=bar;baz" }, expected: { tagListError: true } },
    { name: "test_duplicate_tag_is_an_error", input: { tagList: "foo=bar;foo=baz" }, expected: { tagListError: true } },
    {
      name: "test_trailing_whitespace",
      input: {
        tagList:
          "v=1; a=rsa-sha256; d=facebookmail.com; s=s1024-2011-q2; c=relaxed/simple;\n          q=dns/txt; i=@facebookmail.com; t=1308078492;\n          h=From:Subject:Date:To:MIME-Version:Content-Type;\n          bh=+qPyCOiDQkusTPstCoGjimgDgeZbUaJWIr1mdE6RFxk=;\n          b=EUmDmdnAsNtjSEHGHNTa8PXgGaEUtOVezagmninX5Bs/Q26R9r3AMgawyUSKkbHp\n          /bQZU6QPZfdvmLMPdIWCQPo8SP+gsz4dpox2efO61DlvgYaxBRhwFedAW9LjYhQc\n          3KzW0yB9JHwiDCw1EioVkv+OMHhAYzoIypA0bQyi2bc=;\n  ",
      },
      expected: { tags: { t: "1308078492" }, count: 11 },
    },
    {
      name: "example._domainkey.canonical.com (minkey=512)",
      input: {
        record:
          "k=rsa; p=MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBANmBe10IgY+u7h3enWTukkqtUD5PR52Tb/mPfjC0QJTocVBq6Za/PlzfV+Py92VaCak19F4WrbVTK5Gg5tW220MCAwEAAQ==",
      },
      expected: { key: "usable", keyType: "rsa", rsaBits: 512 },
    },
    ...[
      ["20120113._domainkey.gmail.com", "k=rsa; "],
      ["20120113._domainkey.gmail.com (test_implicit_k)", ""],
    ].map(([name, k]) => ({
      name: name!,
      input: {
        record: `${k}p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA1Kd87/UeJjenpabgbFwh+eBCsSTrqmwIYYvywlbhbqoo2DymndFkbjOVIPIldNs/m40KF+yzMn1skyoxcTUGCQs8g3FgD2Ap3ZB5DekAo5wMmk4wimDO+U8QzI3SD07y2+07wlNWwIt8svnxgdxGkVbbhzY8i+RQ9DpSVpPbF7ykQxtKXkv/ahW3KjViiAH+ghvvIhkx4xYSIc9oSwVmAl5OctMEeWUwg8Istjqz8BZeTWbf41fbNhte7Y+YqZOwq1Sd0DbvYAD9NOZK9vlfuac0598HY+vtSBczUiKERHv1yRbcaQtZFh5wtiRrN04BLUTD21MycBX5jYchHjPY/wIDAQAB`,
      },
      expected: { key: "usable", keyType: "rsa", rsaBits: 2048 } as const,
    })),
  ],
};

/** emersion/go-msgauth: the key records its DKIM tests verify against (PKCS#1 RSA, SPKI RSA, Ed25519). */
export const GO_MSGAUTH_DKIM_KEYS: ConformanceTable<DkimInput, DkimVerdict> = {
  source: {
    repository: "emersion/go-msgauth",
    path: "dkim/query_test.go",
    commit: "3d0ed8686853faec29882bf10f90620495a45e40",
    license: "MIT",
  },
  cases: [
    {
      name: "dnsRawRSAPublicKey",
      input: {
        record:
          "v=DKIM1; p=MIGJAoGBALVI635dLK4cJJAH3Lx6upo3X/Lm1tQz3mezcWTA3BUBnyIsdnRf57aD5BtNmhPrYYDlWlzw3UgnKisIxktkk5+iMQMlFtAS10JB8L3YadXNJY+JBcbeSi5TgJe4WFzNgW95FWDAuSTRXSWZfA/8xjflbTLDx0euFZOM7C4T0GwLAgMBAAE=",
      },
      expected: { key: "usable", keyType: "rsa", rsaBits: 1024 },
    },
    {
      name: "dnsPublicKey",
      input: {
        record:
          "v=DKIM1; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDwIRP/UC3SBsEmGqZ9ZJW3/DkMoGeLnQg1fWn7/zYtIxN2SnFCjxOCKG9v3b4jYfcTNh5ijSsq631uBItLa7od+v/RtdC2UzJ1lWT947qR+Rcac2gbto/NMqJ0fzfVjH4OuKhitdY9tf6mcwGjaNBcWToIMmPSPDdQPNUYckcQ2QIDAQAB",
      },
      expected: { key: "usable", keyType: "rsa", rsaBits: 1024 },
    },
    {
      name: "dnsEd25519PublicKey",
      input: { record: "v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=" },
      expected: { key: "usable", keyType: "ed25519" },
    },
  ],
};
