import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseRegQuery, regDword, regString } from "./reg-query.js";

const fixture = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

describe("reg query reader", () => {
  it("reads keys and their values, keeping spaces inside data and empty REG_SZ values", () => {
    const [key] = parseRegQuery(fixture("asset_inventory/fixtures/win32-reg-query-uninstall-wow6432node.txt"));
    expect(key?.path).toMatch(/\\Uninstall\\\{675A6D5C-FF5A-11EF-AEA3-1967AD678D6D\}$/);
    expect(regString(key!, "DisplayName")).toBe("Check MK Agent 2.1");
    expect(regString(key!, "UninstallString")).toBe("MsiExec.exe /X{675A6D5C-FF5A-11EF-AEA3-1967AD678D6D}");
    expect(regString(key!, "Comments")).toBe("");
    expect(regDword(key!, "EstimatedSize")).toBe(0x4eaf9);
    expect(regDword(key!, "DisplayName")).toBeUndefined();
    expect(regDword(key!, "NoSuchValue")).toBeUndefined();
  });

  it("returns nothing for an error message", () => {
    expect(parseRegQuery("unrecognised output")).toEqual([]);
  });
});
