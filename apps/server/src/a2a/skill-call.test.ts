import { describe, expect, it } from "vitest";
import { skillCallOf } from "./skill-call.js";
import { MessageSchema } from "./wire.js";

const message = (raw: Record<string, unknown>) => MessageSchema.parse({ messageId: "m", role: "ROLE_USER", ...raw });

describe("skillCallOf: how a message names a skill", () => {
  it("a data part {skill, params}", () => {
    expect(
      skillCallOf(message({ parts: [{ data: { skill: "hipaa.grade", params: { npi: "1234567893" } } }] })),
    ).toEqual({
      skill: "hipaa.grade",
      params: { npi: "1234567893" },
    });
  });

  it("a data part {skill} without params: no params", () => {
    expect(skillCallOf(message({ parts: [{ data: { skill: "hipaa.reputation" } }] }))).toEqual({
      skill: "hipaa.reputation",
      params: {},
    });
  });

  it("message.metadata.skill, the data part being the params (or absent)", () => {
    expect(
      skillCallOf(message({ metadata: { skill: "hipaa.grade" }, parts: [{ data: { npi: "1234567893" } }] })),
    ).toEqual({ skill: "hipaa.grade", params: { npi: "1234567893" } });
    expect(skillCallOf(message({ metadata: { skill: "hipaa.reputation" }, parts: [{ text: "hi" }] }))).toEqual({
      skill: "hipaa.reputation",
      params: {},
    });
  });

  it("both forms naming the same skill agree; naming different ones is refused", () => {
    const data = { skill: "hipaa.grade", params: { npi: "1234567893" } };
    expect(skillCallOf(message({ metadata: { skill: "hipaa.grade" }, parts: [{ data }] }))).toMatchObject({
      skill: "hipaa.grade",
    });
    expect(skillCallOf(message({ metadata: { skill: "hipaa.scan" }, parts: [{ data }] }))).toMatchObject({
      kind: "invalid",
    });
  });

  it("text parts are ignored beside the call; file parts and non-JSON data parts are content the agent cannot read", () => {
    expect(skillCallOf(message({ parts: [{ text: "note" }, { data: { skill: "hipaa.grade" } }] }))).toMatchObject({
      skill: "hipaa.grade",
    });
    expect(skillCallOf(message({ parts: [{ raw: "AAAA" }, { data: { skill: "hipaa.grade" } }] }))).toMatchObject({
      kind: "content_type",
    });
    expect(
      skillCallOf(message({ parts: [{ data: { skill: "hipaa.grade" }, mediaType: "application/vnd.api+json" }] })),
    ).toMatchObject({ skill: "hipaa.grade" });
    expect(
      skillCallOf(message({ parts: [{ data: { skill: "hipaa.grade" }, mediaType: "text/plain" }] })),
    ).toMatchObject({ kind: "content_type" });
  });

  it("refuses: no skill anywhere, two data parts, params that are not an object, a non-string metadata.skill", () => {
    for (const raw of [
      { parts: [{ text: "grade please" }] },
      { parts: [{ data: { npi: "1234567893" } }] },
      { parts: [{ data: { skill: "hipaa.grade" } }, { data: { skill: "hipaa.scan" } }] },
      { parts: [{ data: { skill: "hipaa.grade", params: "1234567893" } }] },
      { metadata: { skill: "hipaa.grade" }, parts: [{ data: ["1234567893"] }] },
      { metadata: { skill: 7 }, parts: [{ data: {} }] },
    ])
      expect(skillCallOf(message(raw)), JSON.stringify(raw)).toMatchObject({ kind: "invalid" });
  });
});
