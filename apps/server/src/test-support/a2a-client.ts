import { randomUUID } from "node:crypto";
import { type Message, type Part, Role, type SendMessageRequest } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  createAuthenticatingFetchWithRetry,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { httpRequestTo } from "../lab/https-client.js";

/** A fetch for the A2A SDK over real HTTPS that trusts the test CA (Node's global fetch cannot take a CA). */
export function fetchTrustingCa(ca: string): typeof fetch {
  return async (input, init) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const res = await httpRequestTo(String(input instanceof Request ? input.url : input), {
      ca,
      method: init?.method ?? "GET",
      headers,
      ...(typeof init?.body === "string" ? { body: init.body } : {}),
    });
    return new Response(res.status === 204 || res.status === 304 ? null : res.text, {
      status: res.status,
      headers: { "content-type": String(res.headers["content-type"] ?? "") },
    });
  };
}

/**
 * An @a2a-js/sdk client made the way an agent makes one: from the card at /.well-known/agent-card.json (the
 * SDK's resolver and JSON-RPC transport), with the API key added by the SDK's authenticating fetch.
 */
export async function a2aClientFromCard(baseUrl: string, ca: string, apiKey: string): Promise<Client> {
  const fetchImpl = createAuthenticatingFetchWithRetry(fetchTrustingCa(ca), {
    headers: async () => ({ "X-API-Key": apiKey }),
    shouldRetryWithHeaders: async () => undefined,
  });
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return factory.createFromUrl(baseUrl);
}

/** A JSON data part (the SDK's Part: every field present). */
export const dataPart = (data: unknown): Part => ({
  content: { $case: "data", value: data },
  metadata: undefined,
  filename: "",
  mediaType: "application/json",
});

export const textPart = (text: string): Part => ({
  content: { $case: "text", value: text },
  metadata: undefined,
  filename: "",
  mediaType: "",
});

/** A user's message (the SDK's Message: every field present). */
export function userMessage(
  parts: Part[],
  o: { contextId?: string; metadata?: Record<string, unknown> } = {},
): Message {
  return {
    messageId: randomUUID(),
    contextId: o.contextId ?? "",
    taskId: "",
    role: Role.ROLE_USER,
    parts,
    metadata: o.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A SendMessage request for `skill` with `params`, addressed the first documented way (a data part). */
export function skillRequest(
  skill: string,
  params: Record<string, unknown>,
  o: { contextId?: string; returnImmediately?: boolean } = {},
): SendMessageRequest {
  return {
    tenant: "",
    message: userMessage([dataPart({ skill, params })], o.contextId ? { contextId: o.contextId } : {}),
    configuration:
      o.returnImmediately === undefined
        ? undefined
        : {
            acceptedOutputModes: [],
            taskPushNotificationConfig: undefined,
            returnImmediately: o.returnImmediately,
          },
    metadata: undefined,
  };
}
