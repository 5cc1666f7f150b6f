import { bindOperation } from "../../operations/operation.js";
import { listRestoreTests, recordRestoreTest } from "../../readiness/restore-tests.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";
import { listRestoreTestsDeclaration, recordRestoreTestDeclaration } from "./restore-tests.declaration.js";

export const recordRestoreTestOperation = bindOperation(
  recordRestoreTestDeclaration,
  async ({ npi, ...test }, call) => {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    const view = await recordRestoreTest(call.deps, practice.npi, test);
    call.setResource(`restore_test:${view.id}`);
    return view;
  },
);

export const listRestoreTestsOperation = bindOperation(listRestoreTestsDeclaration, async ({ npi }, call) => {
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
  call.setResource(`practice:${practice.npi}`);
  return { npi: practice.npi, restore_tests: await listRestoreTests(call.deps, practice.npi) };
});
