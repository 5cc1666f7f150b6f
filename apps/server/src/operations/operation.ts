import type { ErrorCode, MeteredOperation } from "@hcs/protocol";
import type { Transaction } from "kysely";
import type { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import type { Caller } from "../services/caller.js";
import type { Database } from "../store/schema.js";
import type { Access } from "./access.js";
import type { InputErrorCodes } from "./input-errors.js";

/**
 * The protocols an operation can be called over; each call's audit event names the one it came by. `portal`: a
 * person signed in to the customer portal, on their account's behalf and without a key (portal-operations.ts).
 */
export type Transport = "rest" | "jsonrpc" | "mcp" | "a2a" | "portal";

/**
 * Which credentials an operation needs, and whose limits count its calls: Group B (any valid key; 60 or 600 a
 * minute per key), Group B without a key (`b-open`: authenticated otherwise — a deploy token, an agent signature —
 * or not at all, counted per client address), Group A (a Professional or Enterprise key; 100 a minute and 1000 an
 * hour; `a-open` is its answer to paths no operation serves), or none (public documents: never limited or charged; audited only when a caller presented a key anyway).
 */
export type OperationGroup = "a" | "a-open" | "b" | "b-open" | "public";

/** What an operation's handler gets besides its validated input. */
export interface OperationCall {
  readonly deps: AppDeps;
  /** The authenticated key (always set for Group A and B operations; null for public ones called anonymously). */
  readonly caller: Caller | null;
  readonly transport: Transport;
  readonly requestId: string;
  /** The client's address (per-address allowances, such as free keys). */
  readonly clientIp: string;
  /** The contextId of the A2A message that carried the call (A2A SendMessage only), kept on what it creates (a job). */
  readonly a2aContextId: string | null;
  /**
   * Aborted when the client's connection closes before the answer is sent, so work queued for the call can be
   * dropped; null over transports without a connection of the call's own (made on first read).
   */
  readonly clientSignal: AbortSignal | null;
  /** Names what the call acted on, for its audit event (e.g. `practice:1234567893`). */
  setResource(resource: string): void;
  /**
   * Writes the call's audit event inside a transaction the handler commits anyway — the one that takes a scan's
   * credits and creates its job — so the event is durable exactly when the effect is (and a group commit is saved).
   */
  auditIn(trx: Transaction<Database>, status: number): Promise<void>;
  /**
   * Takes `credits` from the caller's account before work that costs them is done (an SRA, generated policies,
   * vendor domains to scan): refused with 402 insufficient_credits, and nothing done, when the balance cannot cover
   * them — so concurrent calls can never do more paid work than the balance pays for. The pipeline settles the
   * reservation against the call's price when it ends: what the price does not use is refunded (all of it when the
   * call fails), and the answer states what was charged.
   */
  reserve(credits: number): Promise<void>;
  /**
   * Tells the pipeline what a handler that charges its own price (`charged_by_handler`: a scan's charge commits with
   * its job) took, so every transport states it as it states a metered charge.
   */
  charged(credits: number, balance: number): void;
}

/** How an operation is reached over REST (its OpenAPI entry is generated from the same declaration). */
export interface RestBinding {
  /** `patch` moves a record on (an incident); it reads a JSON body as `post` does. */
  readonly method: "get" | "post" | "patch";
  /** Koa path pattern; `:name` segments become input fields of the same name. */
  readonly path: string;
  /** Media types of a successful answer, for the OpenAPI document (default JSON; a RawBody document's own). */
  readonly produces?: readonly string[];
  /** Status of a successful answer (default 200). */
  readonly status?: number;
  /** Other statuses a successful call may answer with the same body (a replayed upload: 200), for the OpenAPI document. */
  readonly otherStatuses?: readonly { readonly status: number; readonly description: string }[];
  /** Headers of a successful answer (e.g. Cache-Control). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Status and headers that depend on the result (a replayed upload answers 200, a new one 201). */
  readonly answer?: (output: never) => { readonly status?: number; readonly headers?: Record<string, string> };
  /**
   * The request is read by the operation's own reader (`RestReaders.input`: a signed upload's raw bytes and headers,
   * a roster CSV), not as path parameters, query and JSON body: documents show no generic body for it.
   */
  readonly readsOwnBody?: boolean;
}

/**
 * How a REST request becomes the input where the generic reading does not fit; bound with the handler. `Ctx` is the
 * HTTP transport's request context (http/state.ts's HcsContext): the operation layer does not know it, so an
 * operation holds its readers as `RestReaders<never>` (any context's readers are that) and http/rest-binding.ts, which
 * passes its own context, reads them back as `RestReaders<HcsContext>`.
 */
export interface RestReaders<Ctx = never> {
  /**
   * Where the input comes from when it is not the path parameters, the query and the JSON body (a scan upload
   * is signed raw bytes plus headers). Called only after the call is authorized and counted.
   */
  readonly input?: (ctx: Ctx) => Promise<unknown>;
  /**
   * Input fields read from the request's headers (content negotiation: `Accept` → `format`); the query, the body
   * and the path parameters are laid over them, so an explicit `?format=` wins over the header.
   */
  readonly fromHeaders?: (ctx: Ctx) => Record<string, unknown>;
}

/**
 * What a call costs: a metered price charged when the call succeeds (in the settlement, with its audit event), a
 * price the handler charges itself inside its own transaction (a scan: charge and job commit together), or a price
 * that depends on the call (a batch is charged per NPI that has a grade).
 */
export type Price =
  | {
      readonly kind: "metered";
      readonly operation: MeteredOperation;
      /**
       * Answers that are not charged although the call succeeded (a grade lookup's not-yet-assessed answer). Told the
       * handler's output as it returned it (a PreserializedJson is never parsed for this).
       */
      readonly unchargedWhen?: (output: unknown) => boolean;
    }
  | { readonly kind: "charged_by_handler"; readonly operation: MeteredOperation }
  | {
      readonly kind: "computed";
      readonly operation: MeteredOperation;
      /** A sentence for documents: "25 credits per NPI that has a grade". */
      readonly describe: string;
      readonly credits: (input: never, output: never) => number;
    };

/**
 * One capability of the service, declared once: REST routes, JSON-RPC methods, MCP tools and A2A skills are
 * bindings of these declarations, and every call goes through the same pipeline (see invoke.ts). The declaration is
 * metadata only; its handler is bound to it in the operation's own module (`bindOperation`).
 */
export interface OperationDeclaration<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Stable id (OpenAPI operationId, REST-only audit action), e.g. `getGrade`. */
  readonly id: string;
  /**
   * The agent-facing method name (`hipaa.grade`): a JSON-RPC method, the MCP tool `hipaa_grade`, the A2A skill
   * `hipaa.grade`. Absent for operations served over REST only.
   */
  readonly method?: string;
  readonly group: OperationGroup;
  /** Who may call it and whose answer it is: enforced by the pipeline before the handler runs (access.ts). */
  readonly access: Access;
  /** One line (OpenAPI summary, MCP tool title, A2A skill name). */
  readonly summary: string;
  /** What it does, for agents and developers (OpenAPI, MCP tool description, A2A skill description). */
  readonly description: string;
  readonly input: I;
  /**
   * A valid input, for documents and for the tests generated from the catalogue (the authorization matrix calls every
   * operation with it, on a practice and records of its own in place of the ids it names).
   */
  readonly example: z.input<I>;
  readonly output: O;
  readonly price?: Price;
  /** Error codes the operation itself can answer (the pipeline's own — credentials, limits, credits — are added). */
  readonly errors: readonly ErrorCode[];
  readonly inputErrors?: InputErrorCodes;
  /** Changes nothing (MCP readOnlyHint; its rate-limit count joins the settlement, as a GET's does). */
  readonly readOnly: boolean;
  /** May delete or overwrite what the caller recorded (hipaa.baa's remove): MCP destructiveHint. */
  readonly destructive?: boolean;
  /** Reaches beyond the service's own records — a scan contacts the practice's hosts (MCP openWorldHint). */
  readonly openWorld: boolean;
  readonly rest?: RestBinding;
  /**
   * Starts a job that runs for seconds to minutes (a full scan): A2A answers its Task, which follows the job (task id
   * = job id), instead of a Message with the result; the output names the job (`job_id`).
   */
  readonly startsJob?: boolean;
  /**
   * Served ahead of Koa's chain and the router (http/hot-routes.ts), as a plain path: the routes every agent call
   * takes. Only a GET or POST twin can be.
   */
  readonly hot?: boolean;
  /**
   * One paragraph a person can read in a chat beside the structured result (an MCP tool result's text, an A2A
   * message's text part); the generic sentence when absent or when the output is not what it expects.
   */
  readonly summarize?: (output: z.output<O>) => string;
}

/** What an operation's handler answers: its output, or the output already serialized, or a raw document. */
export type OperationAnswer<O extends z.ZodType> = z.output<O> | PreserializedJson | RawBody;

/**
 * An operation as the pipeline runs it: its declaration and its handler (`bindOperation`). Declarations are kept in
 * files of their own (`*.declaration.ts`), importable without the services a handler needs, so that what is made from
 * the metadata alone — the OpenAPI document, the agent card, the MCP tool list, docs — loads a few modules.
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType>
  extends OperationDeclaration<I, O> {
  run(input: z.output<I>, call: OperationCall): Promise<OperationAnswer<O>>;
  readonly restReaders?: RestReaders;
}

/**
 * A result already serialized as JSON text (a stored grade record): REST writes it as is and JSON-RPC splices it
 * into the response, so the hot path never parses and re-serializes it; MCP and A2A parse it when they need an object.
 */
export class PreserializedJson {
  constructor(readonly json: string) {}
  value(): unknown {
    return JSON.parse(this.json);
  }
}

/**
 * A document answered as it is over REST (a policy as Markdown or HTML, a report as HTML or PDF): its media type
 * and headers are the answer's. Only REST-only operations return one.
 */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly body: string | Uint8Array,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/**
 * Everything the service does, declared once (catalogue/index.ts). The router mounts each operation's REST twin;
 * JSON-RPC methods, MCP tools and A2A skills are bound to the operations with an agent method name; the OpenAPI
 * document, the agent card, the MCP tool list and docs/api.md's method table are made from (or tested against) it.
 */
export interface Catalogue {
  readonly operations: readonly Operation[];
}

/** Keeps a literal declaration typed against its own schemas (the handler bound to it is typed by them). */
export function declareOperation<I extends z.ZodType, O extends z.ZodType>(
  declaration: OperationDeclaration<I, O>,
): OperationDeclaration<I, O> {
  return declaration;
}

/** What two bindings of one capability share: what it does and answers, described once. */
type SharedFields = Pick<OperationDeclaration, "summary" | "description" | "openWorld"> &
  Partial<Pick<OperationDeclaration, "destructive">>;

/** What each credential group's binding of a capability declares for itself. */
type BindingFields<I extends z.ZodType, O extends z.ZodType> = Omit<
  OperationDeclaration<I, O>,
  "group" | "openWorld" | "destructive" | "summary" | "description"
> &
  Partial<Pick<OperationDeclaration<I, O>, "summary" | "description">>;

/**
 * A capability sold under both credential groups, declared once with its two bindings (docs/architecture.md, "One
 * catalogue, four transports"): Group B's (an API key, the agent method, the price) and Group A's (a Professional
 * plan's Bearer key; the account's own practice when the NPI is left out; no per-call price). Each binding keeps its
 * own id — the name its calls are audited under — access rule, input, output and REST twin; one handler serves both.
 */
export interface Capability<IB extends z.ZodType, OB extends z.ZodType, IA extends z.ZodType, OA extends z.ZodType> {
  readonly groupB: OperationDeclaration<IB, OB>;
  readonly groupA: OperationDeclaration<IA, OA>;
}

/** Declares a capability with its Group B and Group A bindings (see Capability). */
export function declareCapability<
  IB extends z.ZodType,
  OB extends z.ZodType,
  IA extends z.ZodType,
  OA extends z.ZodType,
>(
  shared: SharedFields,
  bindings: {
    readonly groupB: BindingFields<IB, OB>;
    readonly groupA: Omit<BindingFields<IA, OA>, "method" | "price">;
  },
): Capability<IB, OB, IA, OA> {
  return {
    groupB: { ...shared, ...bindings.groupB, group: "b" },
    groupA: { ...shared, ...bindings.groupA, group: "a" },
  };
}

/** Binds one handler to both bindings of a capability; it learns which group the call came by. */
export function bindCapability<IB extends z.ZodType, OB extends z.ZodType, IA extends z.ZodType, OA extends z.ZodType>(
  capability: Capability<IB, OB, IA, OA>,
  run: (
    input: z.output<IB> | z.output<IA>,
    call: OperationCall,
    group: "a" | "b",
  ) => Promise<OperationAnswer<OB> | OperationAnswer<OA>>,
): { readonly groupB: Operation; readonly groupA: Operation } {
  return {
    groupB: bindOperation(capability.groupB, (input, call) => run(input, call, "b") as Promise<OperationAnswer<OB>>),
    groupA: bindOperation(capability.groupA, (input, call) => run(input, call, "a") as Promise<OperationAnswer<OA>>),
  };
}

/** The operation the pipeline runs: a declaration with its handler. */
export function bindOperation<I extends z.ZodType, O extends z.ZodType, Ctx = never>(
  declaration: OperationDeclaration<I, O>,
  run: (input: z.output<I>, call: OperationCall) => Promise<OperationAnswer<O>>,
  restReaders?: RestReaders<Ctx>,
): Operation {
  if (declaration.rest?.readsOwnBody && !restReaders?.input)
    throw new Error(`${declaration.id}: a REST twin that reads its own body needs its reader`);
  return { ...declaration, run, ...(restReaders ? { restReaders } : {}) } as unknown as Operation;
}

/** The MCP tool name of an agent method: dots are refused by several clients, so `hipaa.grade` → `hipaa_grade`. */
export const mcpToolName = (method: string) => method.replace(/\./g, "_");
