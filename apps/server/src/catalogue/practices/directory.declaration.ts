import { DirectoryEntrySchema } from "@hcs/protocol";
import { declareOperation } from "../../operations/operation.js";
import { NpiInputSchema } from "../grades/grade.declaration.js";

export const directoryDeclaration = declareOperation({
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
  rest: { method: "get", path: "/v1/a2a/directory/:npi" },
});
