#!/usr/bin/env node
// Launcher kept with the sources, so that npm links the command at install time even before the first build; the
// program itself is built into dist/.
import("../dist/bin.js").catch((err) => {
  if (err?.code === "ERR_MODULE_NOT_FOUND" && String(err.message).includes("dist/bin.js")) {
    process.stderr.write("hcs-scanner is not built yet: run `npm run build` at the repository root\n");
    process.exit(1);
  }
  throw err;
});
