import { describe, expect, it } from "vitest";
import { negotiateA2aVersion, requestedA2aVersion } from "./version.js";

describe("A2A-Version", () => {
  it("reads Major.Minor; the patch never counts; an absent or empty header is 0.3 (A2A v1.0 §3.6)", () => {
    expect(requestedA2aVersion("1.0")).toBe("1.0");
    expect(requestedA2aVersion("1.0.7")).toBe("1.0");
    expect(requestedA2aVersion("01.00")).toBe("1.0");
    expect(requestedA2aVersion("")).toBe("0.3");
    expect(requestedA2aVersion("  ")).toBe("0.3");
    expect(requestedA2aVersion("v1")).toBeNull();
    expect(requestedA2aVersion("1")).toBeNull();
  });

  it("serves 1.0 only", () => {
    expect(negotiateA2aVersion("1.0")).toEqual({ ok: true });
    expect(negotiateA2aVersion("1.0.3")).toEqual({ ok: true });
    expect(negotiateA2aVersion("")).toEqual({ ok: false, requested: "0.3" });
    expect(negotiateA2aVersion("1.1")).toEqual({ ok: false, requested: "1.1" });
    expect(negotiateA2aVersion("abc")).toEqual({ ok: false, requested: "abc" });
  });
});
