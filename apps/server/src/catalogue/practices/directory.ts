import { bindOperation } from "../../operations/operation.js";
import { directoryEntry } from "../../services/directory/lookup.js";
import { directoryDeclaration } from "./directory.declaration.js";

export const directoryOperation = bindOperation(directoryDeclaration, async ({ npi }, call) => {
  call.setResource(`directory:${npi}`);
  return directoryEntry(call.deps.store.db, npi);
});
