import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { CalendarDateSchema } from "./calendar-date.js";
export const MemberId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._@+-]+$/, "letters, digits and . _ @ + - only");

export const DEFAULT_COURSE = "hipaa_security_awareness";

export const MemberSchema = z.strictObject({
  member_id: MemberId,
  name: z.string().trim().min(1).max(200),
  role: z.string().trim().min(1).max(100),
  hired_on: CalendarDateSchema,
  terminated_on: CalendarDateSchema.nullable().default(null),
});

export const CompletionSchema = z.strictObject({
  member_id: MemberId,
  course: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9_]+$/, "lower-case letters, digits and _")
    .default(DEFAULT_COURSE),
  completed_on: CalendarDateSchema,
});

export const TrainingRecordsInputSchema = z
  .strictObject({
    npi: NpiSchema.optional(),
    members: z.array(MemberSchema).max(10_000).default([]),
    completions: z.array(CompletionSchema).max(50_000).default([]),
  })
  .refine((r) => r.members.length + r.completions.length > 0, { message: "send members or completions" });

export type TrainingRecords = z.output<typeof TrainingRecordsInputSchema>;

export const TrainingStatusSchema = z
  .object({
    npi: z.string(),
    as_of: z.string(),
    active_members: z.int(),
    current: z.int(),
    due: z.int(),
    overdue: z.int(),
    completion_rate: z.number(),
    members: z.array(
      z.object({
        member_id: z.string(),
        name: z.string(),
        role: z.string(),
        hired_on: z.string(),
        last_completed_on: z.string().nullable(),
        due_on: z.string(),
        state: z.enum(["current", "due", "overdue"]),
      }),
    ),
  })
  .meta({ id: "TrainingStatus", description: "Workforce training: who is current, due and overdue" });

export type TrainingStatus = z.infer<typeof TrainingStatusSchema>;
