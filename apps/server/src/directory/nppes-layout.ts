/**
 * The column layout of the NPPES Data Dissemination files as CMS documents them (the "V.2" monthly and weekly
 * `npidata_pfile_<from>-<to>.csv`, 330 columns, and `endpoint_pfile_<from>-<to>.csv`, 19 columns). Importers find
 * the columns they read by these names in the file's header, so a file whose columns moved still imports; tests and
 * the benchmark write files in exactly this layout.
 */

const numbered = (count: number, names: readonly string[]) =>
  Array.from({ length: count }, (_, i) => names.map((n) => `${n}_${i + 1}`)).flat();

/** The 330 columns of `npidata_pfile`, in order. */
export const NPPES_COLUMNS: readonly string[] = [
  "NPI",
  "Entity Type Code",
  "Replacement NPI",
  "Employer Identification Number (EIN)",
  "Provider Organization Name (Legal Business Name)",
  "Provider Last Name (Legal Name)",
  "Provider First Name",
  "Provider Middle Name",
  "Provider Name Prefix Text",
  "Provider Name Suffix Text",
  "Provider Credential Text",
  "Provider Other Organization Name",
  "Provider Other Organization Name Type Code",
  "Provider Other Last Name",
  "Provider Other First Name",
  "Provider Other Middle Name",
  "Provider Other Name Prefix Text",
  "Provider Other Name Suffix Text",
  "Provider Other Credential Text",
  "Provider Other Last Name Type Code",
  "Provider First Line Business Mailing Address",
  "Provider Second Line Business Mailing Address",
  "Provider Business Mailing Address City Name",
  "Provider Business Mailing Address State Name",
  "Provider Business Mailing Address Postal Code",
  "Provider Business Mailing Address Country Code (If outside U.S.)",
  "Provider Business Mailing Address Telephone Number",
  "Provider Business Mailing Address Fax Number",
  "Provider First Line Business Practice Location Address",
  "Provider Second Line Business Practice Location Address",
  "Provider Business Practice Location Address City Name",
  "Provider Business Practice Location Address State Name",
  "Provider Business Practice Location Address Postal Code",
  "Provider Business Practice Location Address Country Code (If outside U.S.)",
  "Provider Business Practice Location Address Telephone Number",
  "Provider Business Practice Location Address Fax Number",
  "Provider Enumeration Date",
  "Last Update Date",
  "NPI Deactivation Reason Code",
  "NPI Deactivation Date",
  "NPI Reactivation Date",
  "Provider Sex Code",
  "Authorized Official Last Name",
  "Authorized Official First Name",
  "Authorized Official Middle Name",
  "Authorized Official Title or Position",
  "Authorized Official Telephone Number",
  ...numbered(15, [
    "Healthcare Provider Taxonomy Code",
    "Provider License Number",
    "Provider License Number State Code",
    "Healthcare Provider Primary Taxonomy Switch",
  ]),
  ...numbered(50, [
    "Other Provider Identifier",
    "Other Provider Identifier Type Code",
    "Other Provider Identifier State",
    "Other Provider Identifier Issuer",
  ]),
  "Is Sole Proprietor",
  "Is Organization Subpart",
  "Parent Organization LBN",
  "Parent Organization TIN",
  "Authorized Official Name Prefix Text",
  "Authorized Official Name Suffix Text",
  "Authorized Official Credential Text",
  ...numbered(15, ["Healthcare Provider Taxonomy Group"]),
  "Certification Date",
];

/** How many taxonomy slots a record has (`Healthcare Provider Taxonomy Code_1` … `_15`). */
export const NPPES_TAXONOMY_SLOTS = 15;

/** The columns the directory keeps, by what it calls them; everything else in the file is skipped unread. */
export const NPPES_READ = {
  npi: "NPI",
  entityType: "Entity Type Code",
  organizationName: "Provider Organization Name (Legal Business Name)",
  lastName: "Provider Last Name (Legal Name)",
  firstName: "Provider First Name",
  credential: "Provider Credential Text",
  line1: "Provider First Line Business Practice Location Address",
  line2: "Provider Second Line Business Practice Location Address",
  city: "Provider Business Practice Location Address City Name",
  state: "Provider Business Practice Location Address State Name",
  postalCode: "Provider Business Practice Location Address Postal Code",
  countryCode: "Provider Business Practice Location Address Country Code (If outside U.S.)",
  enumerated: "Provider Enumeration Date",
  updated: "Last Update Date",
  deactivated: "NPI Deactivation Date",
  reactivated: "NPI Reactivation Date",
  officialLastName: "Authorized Official Last Name",
  officialFirstName: "Authorized Official First Name",
} as const;

export const nppesTaxonomyColumn = (slot: number) => `Healthcare Provider Taxonomy Code_${slot}`;
export const nppesPrimarySwitchColumn = (slot: number) => `Healthcare Provider Primary Taxonomy Switch_${slot}`;

/** The 19 columns of `endpoint_pfile`, in order. */
export const NPPES_ENDPOINT_COLUMNS: readonly string[] = [
  "NPI",
  "Endpoint Type",
  "Endpoint Type Description",
  "Endpoint",
  "Affiliation",
  "Endpoint Description",
  "Affiliation Legal Business Name",
  "Use Code",
  "Use Description",
  "Other Use Description",
  "Content Type",
  "Content Description",
  "Other Content Description",
  "Affiliation Address Line One",
  "Affiliation Address Line Two",
  "Affiliation Address City",
  "Affiliation Address State",
  "Affiliation Address Country",
  "Affiliation Address Postal Code",
];

export const NPPES_ENDPOINT_READ = {
  npi: "NPI",
  type: "Endpoint Type",
  endpoint: "Endpoint",
  affiliation: "Affiliation",
} as const;

/** The NUCC Health Care Provider Taxonomy code set CSV (`nucc_taxonomy_<version>.csv`): the columns it is read by. */
export const NUCC_READ = { code: "Code", classification: "Classification", specialization: "Specialization" } as const;
export const NUCC_COLUMNS: readonly string[] = [
  "Code",
  "Grouping",
  "Classification",
  "Specialization",
  "Definition",
  "Notes",
  "Display Name",
  "Section",
];
