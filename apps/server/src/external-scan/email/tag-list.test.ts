import { describe, expect, it } from "vitest";
import { firstTagValues, parseTagList } from "./tag-list.js";

describe("parseTagList", () => {
  it("keeps order, position among non-empty parts, and lower-cases names only", () => {
    const list = parseTagList(" v=DMARC1 ;; P = Reject; rua=mailto:a@b.example;");
    expect(list.tags).toEqual([
      { name: "v", value: "DMARC1", position: 0 },
      { name: "p", value: "Reject", position: 1 },
      { name: "rua", value: "mailto:a@b.example", position: 2 },
    ]);
    expect(list.malformed).toEqual([]);
  });

  it("reports parts that are not name=value, and a value may itself contain '='", () => {
    const list = parseTagList("garbage; =x; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ==");
    expect(list.malformed).toEqual(["garbage", "=x"]);
    expect(list.tags).toEqual([{ name: "p", value: "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ==", position: 2 }]);
  });

  it("firstTagValues keeps the first of repeated names", () => {
    expect(firstTagValues(parseTagList("id=1; ID=2; v=STSv1").tags)).toEqual(
      new Map([
        ["id", "1"],
        ["v", "STSv1"],
      ]),
    );
  });
});
