import { ServiceError } from "../errors.js";
import type { Operation } from "../operations/operation.js";
import type { RpcHandler } from "../rpc/methods.js";
import { isStoreUnavailable, storeUnavailableError } from "../store/availability.js";
import { agentSkills } from "./agent-card.js";
import { BLOCKING_WAIT_MS } from "./await-job.js";
import { type A2aErrorKind, a2aError, hcsError } from "./errors.js";
import { NO_PUSH_NOTIFICATIONS, sendMessageHandler } from "./send-message.js";
import { cancelTaskHandler, getTaskHandler, listTasksHandler } from "./task-methods.js";
import { A2A_SUPPORTED_VERSIONS, A2A_VERSION_HEADER, negotiateA2aVersion } from "./version.js";

export interface A2aOptions {
  /** How long a blocking SendMessage waits for its job (default 30 s). */
  readonly blockingWaitMs?: number;
}

/**
 * Every call of an A2A method first settles the protocol version (the A2A-Version header: 1.0 is served, anything
 * else — an absent header reads as 0.3 — is VersionNotSupported, -32009); a failure the handler did not expect is
 * answered as an HCS error (503 unavailable when the store did not answer), never thrown into the endpoint.
 */
function a2aMethod(handler: RpcHandler): RpcHandler {
  return {
    async call(params, ctx) {
      const version = negotiateA2aVersion(ctx.header(A2A_VERSION_HEADER));
      if (!version.ok)
        return a2aError(
          "version_not_supported",
          `A2A version ${version.requested} is not supported: this agent speaks A2A ${A2A_SUPPORTED_VERSIONS.join(", ")} ` +
            `(send the header ${A2A_VERSION_HEADER}: ${A2A_SUPPORTED_VERSIONS[0]})`,
          ctx,
          { data: { requested_version: version.requested, supported_versions: A2A_SUPPORTED_VERSIONS } },
        );
      try {
        return await handler.call(params, ctx);
      } catch (err) {
        ctx.deps.logger.error({ err, request_id: ctx.requestId }, "A2A method failed");
        return hcsError(
          isStoreUnavailable(err)
            ? storeUnavailableError()
            : new ServiceError("internal", "internal error; quote the request id when reporting it"),
        );
      }
    },
  };
}

/** A method of A2A v1.0 this agent does not serve, answered with the error A2A prescribes for it. */
const notServed = (kind: A2aErrorKind, message: string): RpcHandler =>
  a2aMethod({ call: async (_params, ctx) => a2aError(kind, message, ctx) });

const NO_STREAMING =
  "streaming is not offered (capabilities.streaming is false): SendMessage waits for the task to end, or follow it with GetTask";

function operationById(operations: readonly Operation[], id: string): Operation {
  const operation = operations.find((op) => op.id === id);
  if (!operation) throw new Error(`A2A: the catalogue has no ${id} operation`);
  return operation;
}

/**
 * The A2A v1.0 JSON-RPC methods served on /api/a2a beside the catalogue's own (a literal table: every method of
 * A2A v1.0's JSON-RPC binding is here, served or answered with its prescribed error, never "method not found").
 * SendMessage reaches every skill — each operation with an agent method; the task methods are bound to the
 * catalogue's job operations.
 */
export function a2aMethods(operations: readonly Operation[], options: A2aOptions = {}): Record<string, RpcHandler> {
  const skills = new Map(operations.filter((op) => op.method).map((op) => [op.method!, op]));
  // Tasks are the jobs of the one skill declared to start them (a full scan).
  const starters = operations.filter((op) => op.startsJob && op.method);
  if (starters.length !== 1) throw new Error(`A2A: ${starters.length} operations start jobs; tasks follow exactly one`);
  const jobSkill = starters[0]!.method!;
  return {
    SendMessage: a2aMethod(
      sendMessageHandler({
        skills,
        advertised: agentSkills(operations).map((op) => op.method!),
        blockingWaitMs: options.blockingWaitMs ?? BLOCKING_WAIT_MS,
      }),
    ),
    GetTask: a2aMethod(getTaskHandler(operationById(operations, "getJob"), jobSkill)),
    ListTasks: a2aMethod(listTasksHandler(operationById(operations, "listJobs"), jobSkill)),
    CancelTask: a2aMethod(cancelTaskHandler(operationById(operations, "cancelJob"), jobSkill)),
    SendStreamingMessage: notServed("unsupported_operation", NO_STREAMING),
    SubscribeToTask: notServed("unsupported_operation", NO_STREAMING),
    CreateTaskPushNotificationConfig: notServed("push_notification_not_supported", NO_PUSH_NOTIFICATIONS),
    GetTaskPushNotificationConfig: notServed("push_notification_not_supported", NO_PUSH_NOTIFICATIONS),
    ListTaskPushNotificationConfigs: notServed("push_notification_not_supported", NO_PUSH_NOTIFICATIONS),
    DeleteTaskPushNotificationConfig: notServed("push_notification_not_supported", NO_PUSH_NOTIFICATIONS),
    GetExtendedAgentCard: notServed(
      "unsupported_operation",
      "there is no extended agent card (capabilities.extendedAgentCard is false): the public card is complete",
    ),
  };
}
