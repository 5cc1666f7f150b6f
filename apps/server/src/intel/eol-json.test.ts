import { describe, expect, it } from "vitest";
import { parseEolData } from "./eol-json.js";
import { findCycle, judgeCycle } from "./eol-verdict.js";
import { isFeedError } from "./feed-error.js";

// The shape of https://endoflife.date/api/nginx.json (cycles abridged).
const NGINX_API = [
  { cycle: "1.29", releaseDate: "2025-06-24", eol: false, latest: "1.29.0", lts: false },
  { cycle: "1.28", releaseDate: "2025-04-23", eol: "2026-04-14", latest: "1.28.0", lts: false },
  { cycle: "1.26", releaseDate: "2024-04-23", eol: "2025-04-23", latest: "1.26.3", lts: false },
];
// The v1 API's product document.
const REDIS_V1 = {
  schema_version: "1.2.0",
  result: {
    name: "redis",
    releases: [
      { name: "8.0", releaseDate: "2025-05-02", isEol: false, eolFrom: null, latest: { name: "8.0.2" } },
      { name: "7.2", releaseDate: "2023-08-15", isEol: false, eolFrom: "2026-02-28", latest: { name: "7.2.9" } },
    ],
  },
};

describe("endoflife.date product data", () => {
  it("reads the API's cycle array for a named product", () => {
    const [nginx] = parseEolData(JSON.stringify(NGINX_API), "nginx");
    expect(nginx?.product).toBe("nginx");
    expect(nginx?.cycles[1]).toEqual({
      cycle: "1.28",
      release: "2025-04-23",
      eol: "2026-04-14",
      extended: null,
      latest: "1.28.0",
    });
  });
  it("reads the v1 product document and a bundle of several products", () => {
    const [redis] = parseEolData(JSON.stringify(REDIS_V1));
    expect(redis?.cycles.map((c) => [c.cycle, c.eol])).toEqual([
      ["8.0", false],
      ["7.2", "2026-02-28"],
    ]);
    const bundle = parseEolData(
      JSON.stringify({ nginx: NGINX_API, "amazon-linux": [{ cycle: "2", eol: "2026-06-30" }] }),
    );
    expect(bundle.map((p) => p.product)).toEqual(["nginx", "amazon-linux"]);
  });
  it("names the product, cycle and field of a fault", () => {
    const refuse = (text: string, product?: string) => {
      try {
        parseEolData(text, product);
      } catch (err) {
        if (isFeedError(err)) return err;
        throw err;
      }
      throw new Error("accepted");
    };
    expect(refuse(JSON.stringify([{ cycle: "1", eol: "soon" }]), "nginx").message).toBe(
      'nginx[0], field "eol": "soon" is not a date (YYYY-MM-DD) or true/false',
    );
    expect(refuse(JSON.stringify(NGINX_API)).message).toMatch(/--product/);
    expect(refuse(JSON.stringify([{ cycle: "1.2" }, { cycle: "1.2" }]), "x").code).toBe("feed_duplicate_rows");
    expect(refuse(JSON.stringify({ "../etc": [] })).code).toBe("feed_bad_value");
    expect(refuse('[{"cycle":').code).toBe("feed_malformed");
  });
});

describe("server-side verdicts", () => {
  const [nginx] = parseEolData(JSON.stringify(NGINX_API), "nginx");
  const today = new Date("2026-05-01T12:00:00Z");
  it("finds a cycle the scanner's older data did not know by version prefix", () => {
    expect(findCycle(nginx!.cycles, "", "1.28.0")?.cycle).toBe("1.28");
    expect(findCycle(nginx!.cycles, "", "1.2")).toBeNull();
    expect(judgeCycle(findCycle(nginx!.cycles, "", "1.28.0"), today)).toMatchObject({
      status: "eol",
      eol: "2026-04-14",
    });
    expect(judgeCycle(findCycle(nginx!.cycles, "1.29", "1.29.0"), today).status).toBe("supported");
  });
  it("counts the eol day itself as supported and a dated extended phase as supported", () => {
    const c = { cycle: "2", release: null, eol: "2026-05-01", extended: "2027-01-01", latest: null };
    expect(judgeCycle(c, today)).toMatchObject({ status: "supported", daysLeft: 0, inExtendedSupport: false });
    expect(judgeCycle(c, new Date("2026-05-02T00:00:00Z"))).toMatchObject({
      status: "supported",
      inExtendedSupport: true,
    });
    expect(judgeCycle({ ...c, eol: true, extended: null }, today).status).toBe("eol");
    expect(judgeCycle(null, today).status).toBe("unknown");
  });
});
