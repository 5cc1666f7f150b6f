import { randomUUID } from "node:crypto";
import type { ScanDispatchAcceptance } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { Operation } from "../operations/operation.js";
import { callOperation, type RpcCallContext, type RpcHandler, type RpcOutcome } from "../rpc/methods.js";
import { jobForAccount } from "../services/jobs.js";
import { awaitJobEnd } from "./await-job.js";
import { a2aError, answered, hcsError, readParams } from "./errors.js";
import { isSkillCall, type SkillCall, skillCallOf } from "./skill-call.js";
import { skillResultMessage, taskOfJob } from "./task-mapping.js";
import { SendMessageParamsSchema } from "./wire.js";

// What the agent answers: JSON data, with a text line beside it. A client that accepts neither JSON nor any type
// cannot read an answer.
const READABLE_OUTPUT = /^(?:\*\/\*|application\/\*|application\/json)$/i;

/** Why push-notification configs are refused (A2A prescribes PushNotificationNotSupported for them). */
export const NO_PUSH_NOTIFICATIONS =
  "push notifications are not offered (capabilities.pushNotifications is false): poll with GetTask, or give " +
  "hipaa.scan a callback_url for the service's signed webhook";

export interface SendMessageOptions {
  /** Every operation with an agent method, by method (the skill id). */
  readonly skills: ReadonlyMap<string, Operation>;
  /** The skill ids of the agent card (named in the error for an unknown skill). */
  readonly advertised: readonly string[];
  /** How long a blocking send waits for its job to end (then the task is answered as it stands). */
  readonly blockingWaitMs: number;
}

/**
 * SendMessage: the message names a skill (see skill-call.ts) and carries its params; the skill runs as its
 * catalogue operation through the one call pipeline with transport `a2a` (authorized, counted, charged, audited).
 * A short skill answers a Message from the agent with the result as a data part; a skill that starts a job answers
 * its Task, right away with `configuration.returnImmediately`, else once the job has ended or `blockingWaitMs` has
 * passed (then in its current state, to follow with GetTask). The message's contextId (one is generated when it has
 * none) is on the answer and on the job. A failed call is the JSON-RPC error of its HCS code (a bad NPI: -32602 with
 * data.code invalid_npi).
 */
export function sendMessageHandler(o: SendMessageOptions): RpcHandler {
  return {
    async call(params, ctx) {
      const read = readParams(SendMessageParamsSchema, params);
      if (!read.ok) return read.outcome;
      const { message, configuration } = read.value;
      if (configuration?.taskPushNotificationConfig !== undefined)
        return a2aError("push_notification_not_supported", NO_PUSH_NOTIFICATIONS, ctx);
      if (message.taskId)
        return a2aError(
          "unsupported_operation",
          "tasks here take no further messages: send a new message (without taskId) for another call",
          ctx,
        );
      const modes = configuration?.acceptedOutputModes ?? [];
      if (modes.length > 0 && !modes.some((m) => READABLE_OUTPUT.test(m.trim())))
        return a2aError("content_type_not_supported", "every answer is application/json data", ctx, {
          data: { output_modes: ["application/json", "text/plain"] },
        });
      const call = skillCallOf(message);
      if (!isSkillCall(call))
        return call.kind === "content_type"
          ? a2aError("content_type_not_supported", call.message, ctx, { data: { input_modes: ["application/json"] } })
          : hcsError(new ServiceError("invalid_body", call.message));
      const operation = o.skills.get(call.skill);
      if (!operation)
        return hcsError(
          new ServiceError("invalid_body", `no skill ${JSON.stringify(call.skill.slice(0, 100))}: see the agent card`, {
            skill: call.skill.slice(0, 100),
            skills: o.advertised,
          }),
        );
      const contextId = message.contextId ?? randomUUID();
      // A skill that starts a job (a scan runs for seconds to minutes) answers the Task that follows the job.
      if (operation.startsJob)
        return startTask(operation, call, ctx, {
          contextId,
          waitMs: configuration?.returnImmediately ? 0 : o.blockingWaitMs,
        });
      const outcome = await callOperation(operation, call.params, ctx, "a2a", { contextId });
      if (!outcome.ok) return outcome;
      const result: unknown = JSON.parse(outcome.json);
      const reply = skillResultMessage({ operation, result, contextId, messageId: randomUUID() });
      return answered({ message: reply }, outcome.meta);
    },
  };
}

/** Starts the skill's job and answers its task (after waiting up to `waitMs` for the job to end). */
async function startTask(
  operation: Operation,
  call: SkillCall,
  ctx: RpcCallContext,
  o: { readonly contextId: string; readonly waitMs: number },
): Promise<RpcOutcome> {
  const outcome = await callOperation(operation, call.params, ctx, "a2a", { contextId: o.contextId });
  if (!outcome.ok) return outcome;
  const { job_id } = JSON.parse(outcome.json) as ScanDispatchAcceptance;
  try {
    if (o.waitMs > 0) await awaitJobEnd(ctx.deps, job_id, o.waitMs);
    const job = await jobForAccount(ctx.deps, job_id, ctx.credentials.caller!.accountId);
    return answered({ task: taskOfJob(job, { includeArtifacts: true, skill: operation.method! }) }, outcome.meta);
  } catch (err) {
    // The job was accepted and paid for: whatever went wrong reading it back, the client must learn its id.
    ctx.deps.logger.warn({ err, request_id: ctx.requestId, job_id }, "accepted job could not be read back");
    return hcsError(
      new ServiceError(
        "unavailable",
        `the scan was accepted as task ${job_id}, but could not be read back: GetTask it`,
        {
          task_id: job_id,
        },
      ),
      outcome.meta,
    );
  }
}
