import { readFileSync, writeFileSync } from "node:fs";
import { PhaseResultSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { PERSONAS, type PersonaName, runPersonaScan } from "./test-support/persona-scans.js";

const file = (name: PersonaName) => new URL(`./test-support/fixtures/persona-scans/${name}.json`, import.meta.url);
/** `HCS_UPDATE_PERSONA_SCANS=1 npx vitest run src/phases/persona-scans.test.ts` writes the files again. */
const update = process.env.HCS_UPDATE_PERSONA_SCANS === "1";

describe.each(Object.keys(PERSONAS) as PersonaName[])("the %s persona's scan, as kept for the server", (name) => {
  it("is what the phases say about it now", async () => {
    const scan = await runPersonaScan(name);
    for (const p of scan.phases) expect(PhaseResultSchema.safeParse(p).success).toBe(true);
    const text = `${JSON.stringify(scan, null, 1)}\n`;
    if (update) writeFileSync(file(name), text);
    expect(JSON.parse(readFileSync(file(name), "utf8"))).toEqual(JSON.parse(text));
  });
});
