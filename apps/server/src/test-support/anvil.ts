import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Anvil's first development account (from its fixed default mnemonic): public knowledge, worthless anywhere but a
 * local test chain. The second one plays "someone else".
 */
export const ANVIL_KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
] as const;

export interface Anvil {
  readonly port: number;
  readonly rpcUrl: string;
  readonly chainId: number;
  /** One JSON-RPC call straight to the node (test controls: anvil_mine, anvil_reorg, evm_snapshot…). */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Mines `blocks` empty blocks. */
  mine(blocks?: number): Promise<void>;
  blockNumber(): Promise<number>;
  stop(): Promise<void>;
}

// The binary ships in a per-platform package of @foundry-rs/anvil (its wrapper script only forwards to it); it is
// started directly so that killing it needs no signal forwarding.
function anvilBinary(): string {
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve(`${pkg}/package.json`));
  return join(root, "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function call<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

const running = new Set<ChildProcess>();
// A test process that dies without its afterAll still takes its nodes with it.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * Starts a real local EVM node (anvil) on 127.0.0.1 and a free port, with no fork (it never connects anywhere),
 * mining a block per transaction. `--slots-in-an-epoch 1` makes its `finalized` block trail the latest by 2
 * (anvil reports latest − 2 × slots per epoch; by default 64), so finality is reached by mining two more blocks.
 */
export async function startAnvil(options: { chainId?: number } = {}): Promise<Anvil> {
  const chainId = options.chainId ?? 31337;
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const rpcUrl = `http://127.0.0.1:${port}`;
    const child = spawn(
      anvilBinary(),
      ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId), "--slots-in-an-epoch", "1"].concat(
        ["--silent", "--accounts", "2"],
      ),
      { stdio: "ignore" },
    );
    running.add(child);
    const exited = new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.once("error", () => resolve());
    });
    child.once("exit", () => running.delete(child));
    const deadline = Date.now() + 10_000;
    let up = false;
    while (!up && Date.now() < deadline && child.exitCode === null) {
      up = await call(rpcUrl, "eth_chainId").then(
        () => true,
        () => false,
      );
      if (!up) await new Promise((r) => setTimeout(r, 50));
    }
    if (!up) {
      child.kill("SIGKILL");
      await exited;
      // Another process took the port between our probe and anvil's bind: try another.
      if (attempt < 2) continue;
      throw new Error("anvil did not start");
    }
    const anvil: Anvil = {
      port,
      rpcUrl,
      chainId,
      rpc: (method, params) => call(rpcUrl, method, params),
      mine: async (blocks = 1) => {
        await call(rpcUrl, "anvil_mine", [`0x${blocks.toString(16)}`]);
      },
      blockNumber: async () => Number(await call<string>(rpcUrl, "eth_blockNumber")),
      async stop() {
        if (child.exitCode === null) child.kill("SIGKILL");
        await exited;
      },
    };
    return anvil;
  }
}

/** Writes `key` to an owner-only file (as an operator would keep it) and returns the file's path. */
export function anchorKeyFile(key: string = ANVIL_KEYS[0]): string {
  const file = join(mkdtempSync(join(tmpdir(), "hcs-anchor-key-")), "anchor.key");
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}
