import type { ConformanceTable } from "../../test-support/conformance.js";
import type { DmarcPolicy } from "../dmarc-record.js";

/** The TXT records at _dmarc.<domain>, each as its character-strings (joined without separator, RFC 7208 §3.3). */
export type DmarcTxt = readonly (readonly string[])[];

/**
 * What the source expects: the policy is applied (with these values, where the source checks them), the source
 * reports the record as erroneous ("error": its parser raises), or there is no DMARC record to apply ("none").
 */
export type DmarcVerdict =
  | {
      readonly verdict: "applied";
      readonly p?: DmarcPolicy;
      readonly sp?: DmarcPolicy;
      readonly pct?: number;
      readonly adkim?: "r" | "s";
      readonly aspf?: "r" | "s";
      readonly rua?: readonly string[];
    }
  | { readonly verdict: "error" }
  | { readonly verdict: "none" };

const one = (...records: string[]): DmarcTxt => records.map((r) => [r]);

/** domainaware/checkdmarc's DMARC record tests (an RFC 9989-aware linter: it raises on any invalid tag). */
export const CHECKDMARC_DMARC: ConformanceTable<DmarcTxt, DmarcVerdict> = {
  source: {
    repository: "domainaware/checkdmarc",
    path: "tests/test_dmarc.py",
    commit: "0064c9694cb3a1ba12a473fcf79d2bb1140dacd9",
    license: "Apache-2.0",
    note: "parse_dmarc_record raising = error; records from the _query_dmarc_record tests as record sets",
  },
  cases: [
    { name: "MixedFormatting 1", input: one("v=DMARC1;p=ReJect"), expected: { verdict: "applied", p: "reject" } },
    { name: "MixedFormatting 2", input: one("v = DMARC1;p=reject;"), expected: { verdict: "applied", p: "reject" } },
    {
      name: "MixedFormatting 3",
      input: one("v = DMARC1\t;\tp=reject\t;"),
      expected: { verdict: "applied", p: "reject" },
    },
    {
      name: "MixedFormatting 4",
      input: one("v = DMARC1\t;\tp\t\t\t=\t\t\treject\t;"),
      expected: { verdict: "applied", p: "reject" },
    },
    { name: "MixedFormatting 5", input: one("V=DMARC1;p=reject;"), expected: { verdict: "applied", p: "reject" } },
    {
      name: "InvalidDMARCURI 1",
      input: one("v=DMARC1; p=none; rua=reports@dmarc.cyber.dhs.gov,mailto:dmarcreports@usdoj.gov"),
      expected: { verdict: "error" },
    },
    {
      name: "InvalidDMARCURI 2",
      input: one("v=DMARC1; p=none; rua=__mailto:reports@dmarc.cyber.dhs.gov,mailto:dmarcreports@usdoj.gov"),
      expected: { verdict: "error" },
    },
    {
      name: "InvalidDMARCPolicyValue",
      input: one("v=DMARC1; p=foo; rua=mailto:dmarc@example.com"),
      expected: { verdict: "error" },
    },
    {
      name: "NewTagNp",
      input: one("v=DMARC1; p=reject; np=quarantine"),
      expected: { verdict: "applied", p: "reject" },
    },
    { name: "NewTagPsd", input: one("v=DMARC1; p=reject; psd=n"), expected: { verdict: "applied", p: "reject" } },
    { name: "NewTagT", input: one("v=DMARC1; p=reject; t=y"), expected: { verdict: "applied", p: "reject" } },
    { name: "InvalidNpValue", input: one("v=DMARC1; p=reject; np=invalid"), expected: { verdict: "error" } },
    { name: "InvalidPsdValue", input: one("v=DMARC1; p=reject; psd=x"), expected: { verdict: "error" } },
    { name: "InvalidTValue", input: one("v=DMARC1; p=reject; t=x"), expected: { verdict: "error" } },
    {
      name: "PctRemovedWarning",
      input: one("v=DMARC1; p=reject; pct=100"),
      expected: { verdict: "applied", p: "reject" },
    },
    {
      name: "RfRemovedWarning",
      input: one("v=DMARC1; p=reject; rf=afrf"),
      expected: { verdict: "applied", p: "reject" },
    },
    {
      name: "RiRemovedWarning",
      input: one("v=DMARC1; p=reject; ri=3600"),
      expected: { verdict: "applied", p: "reject" },
    },
    {
      name: "MissingPTagWarning",
      input: one("v=DMARC1; rua=mailto:dmarc@example.com"),
      expected: { verdict: "applied", p: "none" },
    },
    {
      name: "NpDefaultsToSp",
      input: one("v=DMARC1; p=reject; sp=quarantine"),
      expected: { verdict: "applied", p: "reject", sp: "quarantine" },
    },
    {
      name: "BackwardCompatibility",
      input: one(
        "v=DMARC1; p=none; sp=none; fo=1; pct=50; adkim=r; aspf=r; rf=afrf; ri=86400; rua=mailto:eits.dmarcrua@energy.gov; ruf=mailto:eits.dmarcruf@energy.gov",
      ),
      expected: { verdict: "applied", p: "none", sp: "none", pct: 50 },
    },
    { name: "BareVersionTagIsValid 1", input: one("v=DMARC1"), expected: { verdict: "applied", p: "none" } },
    { name: "BareVersionTagIsValid 2", input: one("v=DMARC1;"), expected: { verdict: "applied", p: "none" } },
    { name: "VersionValueCaseSensitive", input: one("v=dmarc1; p=reject"), expected: { verdict: "error" } },
    {
      name: "PercentEncodedReportURI",
      input: one("v=DMARC1; p=none; rua=mailto:a%2Cb@example.com"),
      expected: { verdict: "applied", p: "none", rua: ["mailto:a%2Cb@example.com"] },
    },
    { name: "LongUnknownTagIgnored", input: one("v=DMARC1; p=reject; foobar=baz"), expected: { verdict: "applied" } },
    {
      name: "NonMailtoReportURIKept",
      input: one("v=DMARC1; p=none; rua=https://dmarc.example.com/submit"),
      expected: { verdict: "applied", rua: ["https://dmarc.example.com/submit"] },
    },
    {
      name: "InvalidAlignmentModeFallsBack",
      input: one("v=DMARC1; p=reject; adkim=x; aspf=q"),
      expected: { verdict: "applied", adkim: "r", aspf: "r" },
    },
    {
      name: "ValidAlignmentModesAccepted",
      input: one("v=DMARC1; p=reject; adkim=s; aspf=s"),
      expected: { verdict: "applied", adkim: "s", aspf: "s" },
    },
    { name: "DNSFilterToleratesWhitespace", input: one("v = DMARC1; p=reject"), expected: { verdict: "applied" } },
    { name: "DNSFilterToleratesCase", input: one("V=DMARC1; p=reject"), expected: { verdict: "applied" } },
    { name: "DNSFilterRejectsLowerCaseVersion", input: one("v=dmarc1; p=reject"), expected: { verdict: "none" } },
    { name: "DNSFilterRejectsDMARC10", input: one("v=DMARC10; p=reject"), expected: { verdict: "none" } },
    { name: "GrammarSyntaxError", input: one("v=DMARC1; p"), expected: { verdict: "error" } },
    { name: "SyntaxError fo", input: one("v=DMARC1; p=reject; fo=invalid_value"), expected: { verdict: "error" } },
    { name: "DuplicateTags", input: one("v=DMARC1; p=reject; p=none"), expected: { verdict: "error" } },
    { name: "UnknownTagIgnored", input: one("v=DMARC1; p=reject; xyz=foo"), expected: { verdict: "applied" } },
    { name: "SPFInDMARC", input: one("v=spf1 include:example.com -all"), expected: { verdict: "error" } },
    ...["0", "150", "-1", "abc"].map((pct) => ({
      name: `PctRemovedNotValidated pct=${pct}`,
      input: one(`v=DMARC1; p=reject; pct=${pct}`),
      expected: { verdict: "applied", p: "reject" } as const,
    })),
    { name: "RiRemovedNotValidated", input: one("v=DMARC1; p=reject; ri=abc"), expected: { verdict: "applied" } },
    { name: "FoMutuallyExclusive", input: one("v=DMARC1; p=reject; fo=0:1"), expected: { verdict: "applied" } },
    { name: "FoDuplicateValues", input: one("v=DMARC1; p=reject; fo=d:d"), expected: { verdict: "applied" } },
    { name: "InvalidFoValue", input: one("v=DMARC1; p=reject; fo=x"), expected: { verdict: "error" } },
    { name: "RfRemovedNotValidated", input: one("v=DMARC1; p=reject; rf=invalid"), expected: { verdict: "applied" } },
    {
      name: "SpNoneWarning",
      input: one("v=DMARC1; p=reject; sp=none"),
      expected: { verdict: "applied", p: "reject", sp: "none" },
    },
    { name: "MissingRuaWarning", input: one("v=DMARC1; p=reject"), expected: { verdict: "applied", p: "reject" } },
    {
      name: "PTagPositionWarns",
      input: one("v=DMARC1; sp=none; p=reject"),
      expected: { verdict: "applied", p: "reject" },
    },
    { name: "InvalidSpValue", input: one("v=DMARC1; p=reject; sp=invalid"), expected: { verdict: "error" } },
    { name: "CheckDmarcParseError", input: one("v=DMARC1; p=invalid"), expected: { verdict: "error" } },
    { name: "RecordStartsWithWhitespace", input: one(" v=DMARC1; p=reject"), expected: { verdict: "error" } },
    { name: "MultipleRecords", input: one("v=DMARC1; p=reject", "v=DMARC1; p=none"), expected: { verdict: "error" } },
    {
      name: "UnrelatedRecords",
      input: one("v=DMARC1; p=reject", "some random txt record"),
      expected: { verdict: "error" },
    },
    {
      name: "UnrelatedRecordsIgnored",
      input: one("v=DMARC1; p=reject", "some random txt record"),
      expected: { verdict: "applied", p: "reject" },
    },
  ],
  excluded: {
    "BareVersionTagIsValid 1":
      "RFC 9989 (DMARCbis) reads a record without p as p=none; RFC 7489 §6.6.3, which HCS applies, ignores a record with no valid p and no rua",
    "BareVersionTagIsValid 2":
      "RFC 9989 (DMARCbis) reads a record without p as p=none; RFC 7489 §6.6.3, which HCS applies, ignores a record with no valid p and no rua",
    UnrelatedRecords:
      "checkdmarc's default mode reports other TXT records at _dmarc as an error; RFC 7489 §6.6.3 step 3 discards them (checkdmarc's ignore_unrelated_records mode, the next case, agrees)",
  },
};

/** postalsys/mailauth's getDmarcRecord tests (a verifier's record lookup: it returns the parsed tags or false). */
export const MAILAUTH_DMARC: ConformanceTable<DmarcTxt, DmarcVerdict> = {
  source: {
    repository: "postalsys/mailauth",
    path: "test/dmarc/get-dmarc-record-test.js",
    commit: "039905c712c09c12c4ebd43c21a79945263b9f37",
    license: "MIT",
    note:
      "false = none; organisational-domain fallback cases are left out (the external scan checks the domain itself). " +
      'Not transcribed: the expectation that p keeps the space after "=" (p=" reject"), which RFC 7489\'s ABNF (*WSP around "=") contradicts',
  },
  cases: [
    { name: "resolves _dmarc record", input: one("v=DMARC1; p=reject"), expected: { verdict: "applied", p: "reject" } },
    { name: "empty TXT response", input: [], expected: { verdict: "none" } },
    {
      name: "parses all standard tags",
      input: one(
        "v=DMARC1; p=quarantine; sp=reject; pct=50; adkim=s; aspf=r; fo=1; rua=mailto:dmarc@example.com; ruf=mailto:forensic@example.com; ri=3600",
      ),
      expected: {
        verdict: "applied",
        p: "quarantine",
        sp: "reject",
        pct: 50,
        adkim: "s",
        aspf: "r",
        rua: ["mailto:dmarc@example.com"],
      },
    },
    {
      name: "whitespace around values",
      input: one("v=DMARC1 ;  p = reject  ; pct = 100 "),
      expected: { verdict: "applied", pct: 100 },
    },
    {
      name: "split TXT records",
      input: [["v=DMARC1; p=re", "ject; pct=100"]],
      expected: { verdict: "applied", p: "reject", pct: 100 },
    },
    { name: "pct to integer", input: one("v=DMARC1; p=reject; pct=75"), expected: { verdict: "applied", pct: 75 } },
    {
      name: "invalid pct as 0",
      input: one("v=DMARC1; p=reject; pct=invalid"),
      expected: { verdict: "applied", pct: 0 },
    },
    {
      name: "tags with no value",
      input: one("v=DMARC1; p=reject; tagonly"),
      expected: { verdict: "applied", p: "reject" },
    },
    { name: "tags starting with equals", input: one("v=DMARC1; p=reject; =value"), expected: { verdict: "applied" } },
    {
      name: "lowercase tag names",
      input: one("V=DMARC1; P=reject; ADKIM=s"),
      expected: { verdict: "applied", p: "reject", adkim: "s" },
    },
    { name: "no v=DMARC1 record", input: one("v=spf1 include:example.com -all"), expected: { verdict: "none" } },
    {
      name: "multiple DMARC records",
      input: one("v=DMARC1; p=reject", "v=DMARC1; p=none"),
      expected: { verdict: "none" },
    },
    {
      name: "case-insensitive v=DMARC1 prefix",
      input: one("V=dmarc1; p=reject"),
      expected: { verdict: "applied", p: "reject" },
    },
    {
      name: "filters non-DMARC records",
      input: one("some-other-txt-record", "v=DMARC1; p=reject", "another-record"),
      expected: { verdict: "applied", p: "reject" },
    },
  ],
  excluded: {
    "invalid pct as 0":
      "mailauth turns an unparsable pct into 0; RFC 7489 §6.3 discards the syntax error in favour of the default, pct=100",
    "case-insensitive v=DMARC1 prefix":
      "the version value is the case-sensitive %x44.4d.41.52.43.31 (RFC 7489 §6.4 ABNF): V=dmarc1 is not a DMARC record",
  },
};
