import { z } from "zod";
import { FeedError } from "../intel/feed-error.js";
import {
  type DirectoryAddress,
  type DirectoryProvider,
  dateOf,
  individualName,
  npiOf,
  type ProviderParse,
  parsed,
  Refused,
  TAXONOMY_CODE,
  text,
} from "./provider.js";

const str = z.string().max(1000).optional().nullable();

const AddressSchema = z.looseObject({
  address_purpose: str,
  address_1: str,
  address_2: str,
  city: str,
  state: str,
  postal_code: str,
  country_code: str,
});

const RecordSchema = z.looseObject({
  number: z.union([z.number().int(), z.string().max(20)]),
  enumeration_type: z.string().max(10),
  basic: z.looseObject({
    organization_name: str,
    first_name: str,
    last_name: str,
    credential: str,
    authorized_official_first_name: str,
    authorized_official_last_name: str,
    enumeration_date: str,
    last_updated: str,
    deactivation_date: str,
    reactivation_date: str,
    status: str,
  }),
  addresses: z.array(AddressSchema).max(50).default([]),
  practiceLocations: z.array(AddressSchema).max(500).default([]),
  taxonomies: z
    .array(z.looseObject({ code: z.string().max(20), desc: str, primary: z.boolean().optional() }))
    .max(50)
    .default([]),
});

/** The NPI Registry API's answer (v2.1): `results[]`, or `Errors[]` when the query was refused. */
const AnswerSchema = z.union([
  z.looseObject({ result_count: z.number().int().optional(), results: z.array(z.unknown()).max(1200) }),
  z.looseObject({ Errors: z.array(z.looseObject({ description: z.string().max(1000).optional() })).min(1) }),
]);

export interface RegistryAnswer {
  /** Each result in order, parsed or refused (with its index in `results`). */
  readonly records: readonly (ProviderParse & { readonly index: number })[];
  /** Taxonomy descriptions the records carry (`desc`), by code. */
  readonly taxonomies: ReadonlyMap<string, string>;
}

function address(a: z.infer<typeof AddressSchema>, field: string): DirectoryAddress {
  return {
    line1: text(a.address_1, `${field}.address_1`),
    line2: text(a.address_2, `${field}.address_2`),
    city: text(a.city, `${field}.city`),
    state: text(a.state, `${field}.state`),
    postal_code: text(a.postal_code, `${field}.postal_code`),
    country_code: text(a.country_code, `${field}.country_code`),
  };
}

const EMPTY_ADDRESS: DirectoryAddress = {
  line1: null,
  line2: null,
  city: null,
  state: null,
  postal_code: null,
  country_code: null,
};

/**
 * An answer of the NPI Registry API (`https://npiregistry.cms.hhs.gov/api/?version=2.1&number=…`) as directory
 * providers. The answer must be the API's shape (else the whole file is refused, with what was wrong); a record in it
 * that is not a usable NPI record is refused on its own.
 */
export function parseRegistryAnswer(json: unknown): RegistryAnswer {
  const answer = AnswerSchema.safeParse(json);
  if (!answer.success)
    throw new FeedError(
      "feed_schema_mismatch",
      "this is not an NPI Registry API answer (an object with results[] or Errors[])",
    );
  if ("Errors" in answer.data) {
    const first = (answer.data.Errors as { description?: string }[])[0]?.description ?? "no description";
    throw new FeedError("feed_schema_mismatch", `the NPI Registry refused the query: ${first}`);
  }
  const taxonomies = new Map<string, string>();
  const records = (answer.data.results as unknown[]).map((raw, index) => {
    const r = RecordSchema.safeParse(raw);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      return {
        ok: false as const,
        index,
        refusal: { field: issue.path.join(".") || "record", reason: issue.message },
      };
    }
    const rec = r.data;
    return {
      ...parsed((): DirectoryProvider => {
        const npi = npiOf(String(rec.number), "number");
        const type = rec.enumeration_type === "NPI-1" ? 1 : rec.enumeration_type === "NPI-2" ? 2 : null;
        if (type === null)
          throw new Refused({ field: "enumeration_type", reason: `"${rec.enumeration_type}" is not NPI-1 or NPI-2` });
        const b = rec.basic;
        const location = rec.addresses.find((a) => a.address_purpose === "LOCATION");
        const codes = rec.taxonomies.map((t) => {
          const code = t.code.trim().toUpperCase();
          if (!TAXONOMY_CODE.test(code))
            throw new Refused({ field: "taxonomies.code", reason: `"${code}" is not a taxonomy code` });
          const desc = text(t.desc, "taxonomies.desc");
          if (desc) taxonomies.set(code, desc);
          return { code, primary: t.primary === true };
        });
        return {
          npi,
          entity_type: type,
          name:
            type === 2
              ? text(b.organization_name, "basic.organization_name")
              : individualName(
                  text(b.first_name, "basic.first_name"),
                  text(b.last_name, "basic.last_name"),
                  text(b.credential, "basic.credential"),
                ),
          location: location ? address(location, "addresses") : EMPTY_ADDRESS,
          taxonomies: codes,
          practice_locations: rec.practiceLocations.map((a) => address(a, "practiceLocations")),
          official_first_name:
            type === 2 ? text(b.authorized_official_first_name, "basic.authorized_official_first_name") : null,
          official_last_name:
            type === 2 ? text(b.authorized_official_last_name, "basic.authorized_official_last_name") : null,
          enumerated_on: dateOf(b.enumeration_date, "basic.enumeration_date"),
          updated_on: dateOf(b.last_updated, "basic.last_updated"),
          deactivated_on: dateOf(b.deactivation_date, "basic.deactivation_date"),
          reactivated_on: dateOf(b.reactivation_date, "basic.reactivation_date"),
        };
      }),
      index,
    };
  });
  return { records, taxonomies };
}
