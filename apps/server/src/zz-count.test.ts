import { it } from "vitest";
import { modulesLoadedBy } from "./test-support/loaded-modules.js";

it("count", () => {
  const m = modulesLoadedBy(`${import.meta.dirname}/catalogue/declarations.ts`);
  const own = m.filter((u) => u.includes("/apps/server/src/"));
  console.log("COUNT", m.length, own.length);
  console.log(
    own
      .map((u) => u.replace(/.*src\//, ""))
      .filter((u) => !u.includes(".declaration."))
      .join("\n"),
  );
}, 60000);
