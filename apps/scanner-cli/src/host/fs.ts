import { lstat, open, opendir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { HostFs } from "./host.js";

/** Config files the phases read are small; a bigger file is not the file we expected. */
const DEFAULT_MAX_TEXT_BYTES = 1024 * 1024;

/**
 * Filesystem reads for phases: bounded in size, `null` instead of an exception when a path is missing or
 * unreadable, and a walk that never follows symbolic links (so it cannot leave the tree or loop).
 */
export function createHostFs(): HostFs {
  return {
    readFile: async (path, maxBytes = DEFAULT_MAX_TEXT_BYTES) => {
      const bytes = await readHead(path, maxBytes);
      return bytes === null ? null : new TextDecoder("utf-8").decode(bytes);
    },
    readBytes: readHead,
    exists: async (path) => {
      try {
        await lstat(path);
        return true;
      } catch {
        return false;
      }
    },
    presence: async (path) => {
      try {
        await lstat(path);
        return "present";
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return code === "EACCES" || code === "EPERM" ? "denied" : "absent";
      }
    },
    stat: async (path) => {
      try {
        const s = await stat(path);
        return { size: s.size, mtimeMs: s.mtimeMs, mode: s.mode, isDirectory: s.isDirectory() };
      } catch {
        return null;
      }
    },
    walk,
  };
}

/** The first `maxBytes` of a regular file, or null. */
async function readHead(path: string, maxBytes: number): Promise<Uint8Array | null> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, "r");
    const info = await handle.stat();
    if (!info.isFile()) return null;
    // procfs files (/proc/net/tcp) report size 0 and are generated as they are read: read them to EOF, sequentially.
    if (info.size === 0) return await readToEnd(handle, maxBytes);
    const buffer = new Uint8Array(Math.min(maxBytes, info.size));
    let offset = 0;
    while (offset < buffer.length) {
      const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, null);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return buffer.subarray(0, offset);
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Procfs reads grow a page at a time, as the kernel hands them out: allocating the cap up front (16 MiB for a socket
 * table, 1 MiB for each of ~150 process maps) left tens of MiB of buffers for the collector (bench/scanner-full:
 * peak RSS 119 MiB with 1 MiB buffers, 97 MiB with pages, 92 MiB without the maps read).
 */
const PROC_CHUNK = 4 * 1024;

async function readToEnd(handle: Awaited<ReturnType<typeof open>>, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total < maxBytes) {
    const chunk = new Uint8Array(Math.min(PROC_CHUNK, maxBytes - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** Depth-first walk yielding regular files; symlinks, devices, sockets and unreadable directories are skipped. */
async function* walk(
  root: string,
  options: { maxFiles: number; maxDepth: number; signal?: AbortSignal },
): AsyncIterable<{ path: string; size: number; mtimeMs: number }> {
  const rootInfo = await lstat(root).catch(() => null);
  if (!rootInfo) return;
  if (rootInfo.isFile()) {
    yield { path: root, size: rootInfo.size, mtimeMs: rootInfo.mtimeMs };
    return;
  }
  if (!rootInfo.isDirectory()) return;
  const stack: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
  let yielded = 0;
  while (stack.length > 0) {
    const { dir, depth } = stack.pop()!;
    const entries = await opendir(dir).catch(() => null);
    if (!entries) continue;
    const subdirs: string[] = [];
    try {
      for await (const entry of entries) {
        if (options.signal?.aborted || yielded >= options.maxFiles) return;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (depth < options.maxDepth) subdirs.push(path);
        } else if (entry.isFile()) {
          const info = await lstat(path).catch(() => null);
          if (!info?.isFile()) continue;
          yielded++;
          yield { path, size: info.size, mtimeMs: info.mtimeMs };
        }
      }
    } catch {
      // A directory that vanished or became unreadable mid-walk: keep what was seen, go on with the rest.
    }
    for (const sub of subdirs.sort().reverse()) stack.push({ dir: sub, depth: depth + 1 });
  }
}
