import { DirectoryEntrySchema } from "@hcs/protocol";
import { defineOperation } from "../../operations/operation.js";
import { directoryEntry } from "../../services/directory/lookup.js";
import { NpiInputSchema } from "./grade.js";

export const directoryOperation = defineOperation({
  id: "getDirectoryEntry",
  method: "hipaa.directory",
  group: "b",
  access: { rule: "any_key" },
  example: { npi: "1568946812" },
  summary: "Look up an NPI in the NPPES directory",
  description:
    "NPI-1 individual or NPI-2 organization, name, locations, taxonomies, deactivation, and the candidate domains " +
    "its NPPES endpoints name. Free.",
  input: NpiInputSchema,
  output: DirectoryEntrySchema,
  errors: ["invalid_npi", "npi_not_found"],
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/directory/:npi" },
  async run({ npi }, call) {
    call.setResource(`directory:${npi}`);
    return directoryEntry(call.deps.store.db, npi);
  },
});
