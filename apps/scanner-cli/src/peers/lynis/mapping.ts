import { HipaaControlIdSchema, PhaseIdSchema } from "@hcs/protocol";
import { z } from "zod";
import type { LynisItem } from "./report.js";

/** A scanner check id: `<phase>.<check>`, the phase one of the protocol's twelve. */
const ScannerCheckIdSchema = z
  .string()
  .regex(/^[a-z_]+\.[a-z0-9_]+$/, "a scanner check id is <phase>.<check>")
  .refine((id) => PhaseIdSchema.safeParse(id.split(".")[0]).success, "the part before the dot must be a phase id");

const MappingEntrySchema = z
  .strictObject({
    /** Lynis's test id. */
    lynis: z.string().regex(/^(?:[A-Z]{3,5}-\d{4}|LYNIS)$/),
    /** Case-insensitive pattern on the item's text, when one test raises items that mean different things. */
    text: z
      .string()
      .min(1)
      .refine((p) => {
        try {
          new RegExp(p, "i");
          return true;
        } catch {
          return false;
        }
      }, "not a valid regular expression")
      .optional(),
    title: z.string().min(5),
    relevant: z.boolean(),
    hipaa: z.array(HipaaControlIdSchema).min(1).optional(),
    scanner: z.array(ScannerCheckIdSchema).default([]),
    /**
     * Parts of the scanner's phase that, when a scan names them under the phase's facts.not_assessed, mean the
     * scanner did not answer this question in that scan.
     */
    not_assessed: z
      .array(z.string().regex(/^[a-z_]+$/))
      .min(1)
      .optional(),
    /** `finding` (default): agree when the scanner raised one of its checks; `assessed`: when it read the state. */
    match: z.enum(["finding", "assessed"]).default("finding"),
    /**
     * When the scan's own facts show the suggestion cannot apply on this machine (every condition holds), the item
     * is `inapplicable` there rather than relevant: e.g. "disable the USB storage driver" on a kernel built without
     * one. Reported in its own column and left out of the matched share's denominator, with `because`.
     */
    inapplicable_when: z
      .strictObject({
        /** `<phase>.<dotted path into the phase's facts>` → the value that makes the item moot. */
        facts: z.record(
          z.string().regex(/^[a-z_]+(?:\.[a-z0-9_]+)+$/, "<phase>.<path into its facts>"),
          z.union([z.string(), z.boolean(), z.number()]),
        ),
        because: z.string().min(10),
      })
      .optional(),
    /** The branch that adds scanner ids this build does not have yet. */
    pending: z.string().min(1).optional(),
    /** Why it is (or is not) a HIPAA matter, and how the scanner's check answers it. */
    why: z.string().min(10),
  })
  .superRefine((e, ctx) => {
    if (e.relevant && !e.hipaa) ctx.addIssue({ code: "custom", message: `${e.lynis}: a relevant test cites its rule` });
    if (!e.relevant && (e.hipaa || e.scanner.length > 0)) {
      ctx.addIssue({ code: "custom", message: `${e.lynis}: a test that is not relevant maps to nothing` });
    }
    if (e.match === "assessed" && e.scanner.length === 0) {
      ctx.addIssue({ code: "custom", message: `${e.lynis}: match "assessed" needs scanner checks` });
    }
  });

export const LynisMappingSchema = z
  .strictObject({
    lynis_version: z.string().min(1),
    about: z.string().min(1),
    entries: z.array(MappingEntrySchema).min(1),
  })
  .superRefine((m, ctx) => {
    // One entry per test id, unless text patterns tell them apart (then at most one catch-all, listed last).
    const byTest = new Map<string, (typeof m.entries)[number][]>();
    for (const e of m.entries) byTest.set(e.lynis, [...(byTest.get(e.lynis) ?? []), e]);
    for (const [test, entries] of byTest) {
      const catchAll = entries.filter((e) => e.text === undefined);
      if (catchAll.length > 1 || (catchAll.length === 1 && entries.at(-1)?.text !== undefined)) {
        ctx.addIssue({ code: "custom", message: `${test}: entries of one test need text patterns, catch-all last` });
      }
    }
  });

export type LynisMapping = z.infer<typeof LynisMappingSchema>;
export type LynisMappingEntry = LynisMapping["entries"][number];

/** Validates a mapping document (the JSON beside this file); a typed zod error names what is wrong. */
export function parseLynisMapping(json: unknown): LynisMapping {
  return LynisMappingSchema.parse(json);
}

/** The entry for a Lynis item: the first of its test whose text pattern matches, else its catch-all; or null. */
export function entryFor(mapping: LynisMapping, item: Pick<LynisItem, "test" | "text">): LynisMappingEntry | null {
  for (const e of mapping.entries) {
    if (e.lynis !== item.test) continue;
    if (e.text === undefined || new RegExp(e.text, "i").test(item.text)) return e;
  }
  return null;
}
