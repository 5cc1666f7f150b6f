import { JOBS_PAGE_MAX } from "@hcs/protocol";
import { z } from "zod";

/*
 * The A2A v1.0 objects this agent reads and writes, in their protobuf JSON form (lf.a2a.v1, as @a2a-js/sdk sends
 * them): requests are checked with zod, answers are typed. Readers of protobuf JSON take a field by its JSON name
 * or its proto name (`contextId` or `context_id`) and an enum by its name or its number; unknown fields are ignored.
 */

export const TASK_STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
] as const;
export type TaskStateName = (typeof TASK_STATES)[number];

const ROLES = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"] as const;

/** A protobuf enum by name or by number (its index in `names`). */
const protoEnum = <const T extends readonly [string, ...string[]]>(names: T) =>
  z.union([
    z.enum(names),
    z
      .int()
      .min(0)
      .max(names.length - 1)
      .transform((n) => names[n] as T[number]),
  ]);

const camelOf = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** An object of `shape` whose fields may also come by their proto names (snake_case); only this level is renamed. */
const protoObject = <T extends z.ZodRawShape>(shape: T) =>
  z.preprocess((value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const name = key.includes("_") ? camelOf(key) : key;
      if (!(name in out) || name === key) out[name] = v;
    }
    return out;
  }, z.object(shape));

const Metadata = z.record(z.string(), z.unknown());
/** Identifiers a client chooses (message, context, task): opaque, bounded. */
const ClientId = z.string().min(1).max(256);

export const PartSchema = protoObject({
  text: z.string().optional(),
  raw: z.string().optional(),
  url: z.string().optional(),
  data: z.unknown().optional(),
  metadata: Metadata.optional(),
  filename: z.string().optional(),
  mediaType: z.string().optional(),
}).refine(
  (p) => [p.text, p.raw, p.url, p.data].filter((c) => c !== undefined).length === 1,
  "a part holds exactly one of text, raw, url or data",
);
export type WirePartIn = z.output<typeof PartSchema>;

export const MessageSchema = protoObject({
  messageId: ClientId,
  contextId: ClientId.optional(),
  taskId: z.string().min(1).optional(),
  role: protoEnum(ROLES).optional(),
  parts: z.array(PartSchema).min(1).max(20),
  metadata: Metadata.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
}).refine((m) => m.role !== "ROLE_AGENT", {
  message: "a client's message has role ROLE_USER",
  path: ["role"],
});
export type WireMessageIn = z.output<typeof MessageSchema>;

export const SendMessageParamsSchema = protoObject({
  tenant: z.string().optional(),
  message: MessageSchema,
  configuration: protoObject({
    acceptedOutputModes: z.array(z.string()).optional(),
    taskPushNotificationConfig: z.unknown().optional(),
    historyLength: z.int().min(0).optional(),
    returnImmediately: z.boolean().optional(),
  }).optional(),
  metadata: Metadata.optional(),
});
export type SendMessageParams = z.output<typeof SendMessageParamsSchema>;

export const GetTaskParamsSchema = protoObject({
  tenant: z.string().optional(),
  id: z.string().min(1).max(256),
  historyLength: z.int().min(0).optional(),
});

export const ListTasksParamsSchema = protoObject({
  tenant: z.string().optional(),
  contextId: z.string().max(256).optional(),
  status: protoEnum(TASK_STATES).optional(),
  /** 0 or absent: the default page size. */
  pageSize: z.int().min(0).max(JOBS_PAGE_MAX).optional(),
  pageToken: z.string().max(1024).optional(),
  historyLength: z.int().min(0).optional(),
  statusTimestampAfter: z.iso.datetime({ offset: true }).optional(),
  includeArtifacts: z.boolean().optional(),
});
export type ListTasksParams = z.output<typeof ListTasksParamsSchema>;

export const CancelTaskParamsSchema = protoObject({
  tenant: z.string().optional(),
  id: z.string().min(1).max(256),
  metadata: Metadata.optional(),
});

/** A part this agent writes: a short text, or JSON data. */
export type WirePart =
  | { readonly text: string; readonly mediaType?: string }
  | { readonly data: unknown; readonly mediaType: "application/json" };

export interface WireMessage {
  readonly messageId: string;
  readonly contextId: string;
  readonly taskId?: string;
  readonly role: "ROLE_AGENT";
  readonly parts: readonly WirePart[];
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface WireArtifact {
  readonly artifactId: string;
  readonly name: string;
  readonly description: string;
  readonly parts: readonly WirePart[];
}

export interface WireTask {
  readonly id: string;
  readonly contextId: string;
  readonly status: { readonly state: TaskStateName; readonly message: WireMessage; readonly timestamp: string };
  readonly artifacts?: readonly WireArtifact[];
  readonly metadata: Readonly<Record<string, unknown>>;
}

export interface WireListTasksResponse {
  readonly tasks: readonly WireTask[];
  /** "" on the last page (always present, as A2A asks). */
  readonly nextPageToken: string;
  readonly pageSize: number;
  readonly totalSize: number;
}
