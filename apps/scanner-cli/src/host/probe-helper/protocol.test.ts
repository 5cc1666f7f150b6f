import { describe, expect, it } from "vitest";
import { parseHelperMessage, parseParentMessage } from "./protocol.js";

const SETTINGS = {
  t: "i",
  closed: [-111, -104],
  local: [-24],
  refused: -111,
  aborted: null,
  reuse: true,
  sweepMs: 10,
  active: 256,
  maxActive: 768,
};

describe("probe helper protocol", () => {
  it("accepts the parent's four messages as sent", () => {
    for (const m of [
      SETTINGS,
      { t: "p", h: ["127.0.0.1", "::1"], b: [1, 0, 22, 800, 2, 1, 65535, 0] },
      { t: "c", ids: [1, 2, 3] },
      { t: "s", q: 0 },
    ])
      expect(parseParentMessage(m)).toEqual(m);
  });

  it("refuses parent messages outside the protocol instead of probing on them", () => {
    for (const m of [
      null,
      "p",
      [],
      { t: "z" },
      { t: "p", h: ["127.0.0.1"], b: [1, 0, 22] },
      { t: "p", h: ["127.0.0.1"], b: [1, 0, 70000, 800] },
      { t: "p", h: ["127.0.0.1"], b: [1, -1, 22, 800] },
      { t: "p", h: [1], b: [] },
      { t: "p", h: ["127.0.0.1"], b: [1, 0, 22, Number.NaN] },
      { t: "c", ids: ["1"] },
      { t: "s" },
      { ...SETTINGS, active: 0 },
      { ...SETTINGS, reuse: "yes" },
      { ...SETTINGS, closed: [1.5] },
    ])
      expect(parseParentMessage(m), JSON.stringify(m)).toBeNull();
  });

  it("accepts the helper's messages and refuses malformed ones", () => {
    expect(parseHelperMessage({ t: "ready" })).toEqual({ t: "ready" });
    expect(parseHelperMessage({ t: "x", error: "no tcp_wrap" })).toEqual({ t: "x", error: "no tcp_wrap" });
    expect(parseHelperMessage({ t: "r", b: [1, 0, 0.125, 2, 2, 800] })).toEqual({
      t: "r",
      b: [1, 0, 0.125, 2, 2, 800],
    });
    const usage = { t: "s", q: 3, rss: 1, maxRss: 2, cpu: 3 };
    expect(parseHelperMessage(usage)).toEqual(usage);
    for (const m of [
      undefined,
      { t: "x" },
      { t: "r", b: [1, 0] },
      { t: "r", b: [1, 0, "fast"] },
      { t: "s", q: 1, rss: -1, maxRss: 2, cpu: 3 },
      { t: "p", h: [], b: [] },
    ])
      expect(parseHelperMessage(m), JSON.stringify(m)).toBeNull();
  });
});
