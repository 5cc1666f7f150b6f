import type { ConformanceTable } from "../../test-support/conformance.js";

/**
 * The TXT records at _mta-sts.<domain> or _smtp._tls.<domain>, and what the source expects: a usable record (with
 * its id or report URIs, where checked), an error (its parser raises or the lookup fails), or no record at all.
 */
export type PolicyTxt = readonly string[];
export type PolicyVerdict =
  | { readonly verdict: "valid"; readonly id?: string; readonly rua?: readonly string[] }
  | { readonly verdict: "error" }
  | { readonly verdict: "none" };

const valid = (id?: string): PolicyVerdict => (id === undefined ? { verdict: "valid" } : { verdict: "valid", id });

/** domainaware/checkdmarc's MTA-STS record tests (parse_mta_sts_record and query_mta_sts_record). */
export const CHECKDMARC_MTA_STS: ConformanceTable<PolicyTxt, PolicyVerdict> = {
  source: {
    repository: "domainaware/checkdmarc",
    path: "tests/test_mta_sts.py",
    commit: "1106417bfdaff9bb1a44dfe9bad2c7679e4e4604",
    license: "Apache-2.0",
    note: "a raised MTASTSRecordSyntaxError, InvalidSTSTagValue, SPFRecordFound… or MultipleMTASTSRecords = error",
  },
  cases: [
    { name: "ParseMtaStsRecord", input: ["v=STSv1; id=20240101T010101"], expected: valid("20240101T010101") },
    { name: "UnknownTagIgnored", input: ["v=STSv1; id=abc; extension=foo"], expected: valid("abc") },
    { name: "MissingIdTag", input: ["v=STSv1;"], expected: { verdict: "error" } },
    { name: "IdTooLong", input: [`v=STSv1; id=${"a".repeat(33)}`], expected: { verdict: "error" } },
    { name: "NoSpacesAroundEquals 1", input: ["v =STSv1; id=abc"], expected: { verdict: "error" } },
    { name: "NoSpacesAroundEquals 2", input: ["v= STSv1; id=abc"], expected: { verdict: "error" } },
    { name: "NoSpacesAroundEquals 3", input: ["v=STSv1; id =abc"], expected: { verdict: "error" } },
    { name: "NoSpacesAroundEquals 4", input: ["V=STSv1; id=abc"], expected: { verdict: "error" } },
    { name: "ParseMtaStsRecordSPF", input: ["v=spf1 -all"], expected: { verdict: "error" } },
    { name: "DuplicateTag", input: ["v=STSv1; id=foo; id=bar"], expected: valid("foo") },
    { name: "WspBeforeFieldDelimiter", input: ["v=STSv1 ; id=abc123"], expected: valid("abc123") },
    {
      name: "UnrelatedTxtRecordDiscarded",
      input: ["site-verification=12345", "v=STSv1; id=20240101T010101"],
      expected: valid("20240101T010101"),
    },
    {
      name: "WrongVersionPrefixDiscarded",
      input: ["v=STSv12; id=bogus", "v=STSv1; id=20240101T010101"],
      expected: valid("20240101T010101"),
    },
    {
      name: "MultipleStsRecordsStillRaise",
      input: ["v=STSv1; id=a1", "v=STSv1; id=b2"],
      expected: { verdict: "error" },
    },
    { name: "OnlyUnrelatedTxtRecordsRaiseNotFound", input: ["site-verification=12345"], expected: { verdict: "none" } },
    { name: "SpfRecordAtMtaStsSubdomain", input: ["v=spf1 -all"], expected: { verdict: "error" } },
    { name: "DiscoveryAcceptsWspBeforeDelimiter", input: ["v=STSv1 ; id=abc123"], expected: valid("abc123") },
  ],
};

/** Snawoot/postfix-mta-sts-resolver's record parser tests (a sender: an empty result means no policy). */
export const POSTFIX_MTA_STS_RESOLVER: ConformanceTable<PolicyTxt, PolicyVerdict> = {
  source: {
    repository: "Snawoot/postfix-mta-sts-resolver",
    path: "tests/test_utils.py (test_parse_mta_sts_record)",
    commit: "50a6c049c8d045b4fd9e2ae2576f37354a2f22df",
    license: "MIT",
    note: "{v, id} = valid with that id; {} = none",
  },
  cases: [
    { name: "trailing delimiter", input: ["v=STSv1; id=20160831085700Z;"], expected: valid("20160831085700Z") },
    {
      name: "no space, trailing delimiter",
      input: ["v=STSv1;id=20160831085700Z;"],
      expected: valid("20160831085700Z"),
    },
    { name: "space", input: ["v=STSv1; id=20160831085700Z"], expected: valid("20160831085700Z") },
    { name: "no space", input: ["v=STSv1;id=20160831085700Z"], expected: valid("20160831085700Z") },
    { name: "trailing spaces", input: ["v=STSv1;        id=20160831085700Z   "], expected: valid("20160831085700Z") },
    { name: "empty", input: [""], expected: { verdict: "none" } },
    { name: "spaces", input: ["   "], expected: { verdict: "none" } },
    { name: "delimiters only", input: [" ;   ;  "], expected: { verdict: "none" } },
    {
      name: "repeated trailing delimiters",
      input: ["v=STSv1; id=20160831085700Z;;;"],
      expected: valid("20160831085700Z"),
    },
  ],
};

/** domainaware/checkdmarc's SMTP TLS reporting record tests. */
export const CHECKDMARC_TLS_RPT: ConformanceTable<PolicyTxt, PolicyVerdict> = {
  source: {
    repository: "domainaware/checkdmarc",
    path: "tests/test_smtp_tls_reporting.py",
    commit: "036db09f2f0e0286725d38780f4261aadf647b6e",
    license: "Apache-2.0",
    note: "a raised SMTPTLSReportingSyntaxError, SPFRecordFound… or MultipleSMTPTLSReportingRecords = error",
  },
  cases: [
    {
      name: "ParseSmtpTlsReportingRecord",
      input: ["v=TLSRPTv1; rua=mailto:tlsrpt@example.com"],
      expected: { verdict: "valid", rua: ["mailto:tlsrpt@example.com"] },
    },
    {
      name: "ExtensionTag",
      input: ["v=TLSRPTv1; rua=mailto:a@example.com; extension-field.1=foo"],
      expected: { verdict: "valid", rua: ["mailto:a@example.com"] },
    },
    {
      name: "DigitInitialExtensionTag",
      input: ["v=TLSRPTv1; rua=mailto:a@example.com; 1ext=foo"],
      expected: { verdict: "valid", rua: ["mailto:a@example.com"] },
    },
    {
      name: "DuplicateTag",
      input: ["v=TLSRPTv1; rua=mailto:a@example.com; rua=mailto:b@example.com"],
      expected: { verdict: "valid", rua: ["mailto:a@example.com"] },
    },
    {
      name: "WhitespaceAroundURICommas",
      input: ["v=TLSRPTv1; rua=mailto:a@x.com, mailto:b@x.com"],
      expected: { verdict: "valid", rua: ["mailto:a@x.com", "mailto:b@x.com"] },
    },
    { name: "WSPAroundEquals 1", input: ["v = TLSRPTv1; rua=mailto:a@example.com"], expected: { verdict: "error" } },
    { name: "WSPAroundEquals 2", input: ["v=TLSRPTv1; rua =mailto:a@example.com"], expected: { verdict: "error" } },
    { name: "UppercaseTagName", input: ["v=TLSRPTv1; RUA=mailto:a@example.com"], expected: { verdict: "error" } },
    {
      name: "GarbagePrefixedURI",
      input: ["v=TLSRPTv1; rua=xhttps://example.com/tlsrpt"],
      expected: { verdict: "error" },
    },
    { name: "SPF", input: ["v=spf1 -all"], expected: { verdict: "error" } },
    { name: "InvalidURI", input: ["v=TLSRPTv1; rua=not_a_valid_uri"], expected: { verdict: "error" } },
    { name: "MissingRua", input: ["v=TLSRPTv1"], expected: { verdict: "error" } },
    { name: "HttpsURI", input: ["v=TLSRPTv1; rua=https://tlsrpt.example.com/report"], expected: { verdict: "valid" } },
    {
      name: "TrailingFieldDelimiter",
      input: ["v=TLSRPTv1; rua=mailto:tlsrpt@example.com;"],
      expected: { verdict: "valid", rua: ["mailto:tlsrpt@example.com"] },
    },
    { name: "RecordFound", input: ["v=TLSRPTv1; rua=mailto:rua@example.com"], expected: { verdict: "valid" } },
    {
      name: "UnrelatedRecordDiscarded",
      input: ["site-verification=token123", "v=TLSRPTv1; rua=mailto:rua@example.com"],
      expected: { verdict: "valid", rua: ["mailto:rua@example.com"] },
    },
    {
      name: "DiscoveryPrefixRequiresSemicolon",
      input: ["v=TLSRPTv1extra; junk", "v=TLSRPTv1", "v=TLSRPTv1; rua=mailto:rua@example.com"],
      expected: { verdict: "valid", rua: ["mailto:rua@example.com"] },
    },
    {
      name: "OnlyUnrelatedRecordsRaisesNotFound",
      input: ["site-verification=token123"],
      expected: { verdict: "none" },
    },
    {
      name: "MultipleRecordsStillFatal",
      input: ["v=TLSRPTv1; rua=mailto:a@example.com", "v=TLSRPTv1; rua=mailto:b@example.com"],
      expected: { verdict: "error" },
    },
  ],
  excluded: {
    DuplicateTag:
      "checkdmarc keeps the first of two rua= fields; RFC 8460 §3 (Note 1 of the ABNF) says rua MUST appear exactly once, so senders may treat the record as invalid",
  },
};
