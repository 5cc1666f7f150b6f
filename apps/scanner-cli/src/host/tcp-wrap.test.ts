import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type BindingSource, loadTcpWrap } from "./tcp-wrap.js";

describe("libuv's TCP handle adapter", () => {
  it("loads the handle on this Node", () => {
    expect(loadTcpWrap()).not.toBeNull();
  });

  it("answers null where the handle is missing, throws or has changed shape (callers keep net.Socket)", () => {
    const sources: BindingSource[] = [
      {},
      {
        binding: () => {
          throw new Error("No such module: tcp_wrap");
        },
      },
      { binding: () => undefined },
      { binding: () => ({ TCP: class {}, TCPConnectWrap: class {}, constants: { SOCKET: 0 } }) },
      { binding: () => ({ TCP: 1, TCPConnectWrap: class {}, constants: {} }) },
    ];
    for (const source of sources) expect(loadTcpWrap(source)).toBeNull();
  });

  it("switches deprecation warnings off for its own call only", () => {
    const seen: boolean[] = [];
    const source: BindingSource = {
      noDeprecation: false,
      binding: () => {
        seen.push(source.noDeprecation === true);
        throw new Error("gone");
      },
    };
    expect(loadTcpWrap(source)).toBeNull();
    expect(seen).toEqual([true]);
    expect(source.noDeprecation).toBe(false);
  });

  it("prints no deprecation warning under --pending-deprecation, nor throws under --throw-deprecation", () => {
    const adapter = fileURLToPath(new URL("./tcp-wrap.ts", import.meta.url));
    const script = `import(${JSON.stringify(adapter)}).then((m) => { process.stdout.write(String(m.loadTcpWrap() !== null)); });`;
    const r = spawnSync(
      process.execPath,
      ["--pending-deprecation", "--throw-deprecation", "--import", "tsx", "--input-type=module", "-e", script],
      { encoding: "utf8" },
    );
    expect(r.stderr).not.toMatch(/DeprecationWarning|DEP0111/);
    expect([r.status, r.stdout]).toEqual([0, "true"]);
  });
});
