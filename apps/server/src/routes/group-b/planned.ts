import { CREDIT_PRICES, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { ServiceError } from "../../errors.js";
import { defineOperation, type Operation } from "../../operations/operation.js";

/*
 * The agent methods of DESIGN §7 whose data arrives with later issues (administrative safeguards, threat and breach
 * intelligence). They are declared now — input schemas, prices, REST twins — so that every one of the sixteen
 * methods exists: a call is authorized and counted like any other and answered `not_implemented` (501, JSON-RPC
 * -32051), never "method not found". They are left out of the agent card, the OpenAPI document and the MCP tool
 * list until they are served. When an issue lands, its operation replaces the declaration here (the catalogue
 * names each one, in DESIGN §7's order).
 */

const PlannedOutput = z.object({}).passthrough();

const unserved = async (): Promise<never> => {
  // invoke answers not_implemented before running an operation declared `implemented: false`.
  throw new ServiceError("not_implemented", "not served by this release yet");
};

const planned = (op: Omit<Operation, "output" | "implemented" | "run" | "openWorld"> & { openWorld?: boolean }) =>
  defineOperation({
    ...op,
    output: PlannedOutput,
    implemented: false,
    openWorld: op.openWorld ?? false,
    run: unserved,
  });

export const PLANNED = {
  breach: planned({
    id: "getBreaches",
    method: "hipaa.breach",
    group: "b",
    summary: "HHS OCR breach-portal matches for a practice",
    description:
      "Breaches of 500 or more records reported to HHS OCR that match the practice (by NPI, or by name and state), " +
      "with match confidence, the practice's own reported incidents if the caller owns it, and the dataset date. " +
      `Costs ${CREDIT_PRICES.breach} credits.`,
    input: z
      .strictObject({
        npi: NpiSchema.optional(),
        name: z.string().trim().min(2).max(200).optional(),
        state: z
          .string()
          .regex(/^[A-Z]{2}$/, "a two-letter state code")
          .optional(),
      })
      .refine((i) => i.npi !== undefined || (i.name !== undefined && i.state !== undefined), {
        message: "give npi, or name and state",
      }),
    price: { kind: "metered", operation: "breach" },
    errors: ["invalid_npi", "npi_not_found"],
    readOnly: true,
    rest: { method: "get", path: "/v1/a2a/breach/:npi" },
  }),
  breachProbability: planned({
    id: "getBreachProbability",
    method: "hipaa.breach_probability",
    group: "b",
    summary: "12-month probability of a reportable breach for a practice",
    description:
      "The probability, its band, the factors with their weights and evidence, the model version and the base-rate " +
      `source. Costs ${CREDIT_PRICES.breach_probability} credits.`,
    input: z.strictObject({ npi: NpiSchema }),
    price: { kind: "metered", operation: "breach_probability" },
    errors: ["invalid_npi", "npi_not_found"],
    readOnly: true,
    rest: { method: "get", path: "/v1/a2a/breach-probability/:npi" },
  }),
} as const satisfies Record<string, Operation>;
