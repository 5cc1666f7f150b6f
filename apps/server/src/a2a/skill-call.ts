import type { WireMessageIn } from "./wire.js";

/** What a message asks for: a skill (an agent method, e.g. `hipaa.grade`) and its params. */
export interface SkillCall {
  readonly skill: string;
  readonly params: Record<string, unknown>;
}

/** Why a message does not name a skill call; `content_type` is a part this agent cannot read. */
export type SkillCallProblem = { readonly kind: "invalid" | "content_type"; readonly message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// Media types a data part may declare: JSON, or none (protobuf JSON leaves an empty media type out).
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i;

/**
 * Reads the skill call a message carries. Two forms, both documented:
 *
 * 1. one data part `{"skill": "hipaa.grade", "params": {"npi": "…"}}` (params may be left out when there are none);
 * 2. `message.metadata.skill` names the skill, and the data part is the params themselves (or absent: no params).
 *
 * Text parts are allowed and ignored (a human-readable note beside the call); file parts (raw, url) are not
 * something any skill takes. Both forms naming different skills, several data parts, or no skill at all are refused.
 */
export function skillCallOf(message: WireMessageIn): SkillCall | SkillCallProblem {
  if (message.parts.some((p) => p.raw !== undefined || p.url !== undefined))
    return { kind: "content_type", message: "file parts are not accepted: send the call as a JSON data part" };
  const data = message.parts.filter((p) => p.data !== undefined);
  if (data.length > 1) return { kind: "invalid", message: "send exactly one data part (the skill call)" };
  const part = data[0];
  if (part?.mediaType && !JSON_MEDIA.test(part.mediaType))
    return { kind: "content_type", message: `a data part is JSON; ${part.mediaType.slice(0, 80)} is not accepted` };
  const named = message.metadata?.skill;
  if (named !== undefined && typeof named !== "string")
    return { kind: "invalid", message: "message.metadata.skill must be a string (a skill id of the agent card)" };

  if (part && isObject(part.data) && typeof part.data.skill === "string") {
    const { skill, params } = part.data;
    if (named !== undefined && named !== skill)
      return { kind: "invalid", message: `message.metadata.skill (${named}) and the data part's skill differ` };
    if (params !== undefined && !isObject(params))
      return { kind: "invalid", message: "the data part's params must be an object (the skill's named params)" };
    return { skill, params: params ?? {} };
  }
  if (named === undefined)
    return {
      kind: "invalid",
      message: 'name a skill: send a data part {"skill": "<skill id>", "params": {…}}, or message.metadata.skill',
    };
  if (part && !isObject(part.data))
    return { kind: "invalid", message: "with message.metadata.skill, the data part is the params object" };
  return { skill: named, params: (part?.data as Record<string, unknown> | undefined) ?? {} };
}

export const isSkillCall = (v: SkillCall | SkillCallProblem): v is SkillCall => "skill" in v;
