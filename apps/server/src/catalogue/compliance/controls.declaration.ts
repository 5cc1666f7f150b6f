import { ControlsQuerySchema, ControlsResultSchema } from "@hcs/protocol";
import type { z } from "zod";
import { declareOperation } from "../../operations/operation.js";
import { listed, plural } from "../summary-text.js";

export const controlsDeclaration = declareOperation({
  id: "getControls",
  method: "hipaa.get_controls",
  group: "b",
  access: { rule: "any_key" },
  example: { requirement: "encryption_at_rest" },
  summary: "The HIPAA Security Rule controls and how HCS verifies each",
  description:
    "Standards and implementation specifications of 45 CFR 164.308, 164.310, 164.312 and 164.316: required or " +
    "addressable, their title, the 13 requirements they belong to, and how HCS verifies them (external checks, " +
    "scanner phases, administrative records). Filter by ids, standard, requirement or section. Free.",
  input: ControlsQuerySchema,
  output: ControlsResultSchema,
  errors: [],
  readOnly: true,
  openWorld: false,
  summarize: controlsSummary,
  rest: { method: "get", path: "/v1/a2a/controls" },
});

export function controlsSummary(c: z.output<typeof ControlsResultSchema>): string {
  if (c.controls.length === 0) return "No HIPAA controls match.";
  const shown = c.controls.map((e) => `${e.id} ${e.title} (${e.requirement})`);
  return `${plural(c.controls.length, "HIPAA Security Rule control")}: ${listed(shown, 5)}.`;
}
