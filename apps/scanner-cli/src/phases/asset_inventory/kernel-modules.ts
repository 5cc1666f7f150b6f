/**
 * Pure readers of the Linux kernel's driver configuration: which modules modprobe.d blocks, and whether the running
 * kernel has a driver at all (built in, a loadable module, or absent), from its module lists or its build config.
 */

export interface ModprobeBlock {
  /** `install <module> /bin/false` (or /bin/true): modprobe runs that instead of loading the module. */
  readonly installDisabled: boolean;
  /** `blacklist <module>`: the module is not loaded automatically when a device appears. */
  readonly blacklisted: boolean;
  /** Files with either line. */
  readonly files: string[];
}

const moduleKey = (name: string) => name.replace(/-/g, "_");

/** modprobe.d files (path, text) as modprobe reads them: module names match with `-` and `_` alike. */
export function modprobeBlock(files: readonly { path: string; text: string }[], module: string): ModprobeBlock {
  const key = moduleKey(module);
  let installDisabled = false;
  let blacklisted = false;
  const hits = new Set<string>();
  for (const f of files) {
    for (const raw of f.text.split(/\r?\n/)) {
      const words = raw.replace(/#.*$/, "").trim().split(/\s+/);
      if (words[1] === undefined || moduleKey(words[1]) !== key) continue;
      if (words[0] === "blacklist") {
        blacklisted = true;
        hits.add(f.path);
      } else if (words[0] === "install" && /^(\/usr)?\/bin\/(false|true)$/.test(words[2] ?? "")) {
        installDisabled = true;
        hits.add(f.path);
      }
    }
  }
  return { installDisabled, blacklisted, files: [...hits] };
}

/** Whether the running kernel can drive a device: `unknown` when neither its module lists nor its config was read. */
export type KernelDriver = "built_in" | "module" | "absent" | "unknown";

export interface KernelDriverSources {
  /** /lib/modules/<release>/modules.builtin: drivers compiled into the kernel, one `kernel/…/<name>.ko` a line. */
  readonly builtin: string | null;
  /** /lib/modules/<release>/modules.dep: the installed loadable modules (`kernel/…/<name>.ko[.xz|.zst|.gz]: deps`). */
  readonly dep: string | null;
  /** The kernel's build config (/boot/config-<release> or /proc/config.gz): `CONFIG_X=y|m` or `# CONFIG_X is not set`. */
  readonly config: string | null;
}

export interface KernelDriverReading {
  readonly driver: KernelDriver;
  /** What decided it: `modules.builtin`, `modules.dep`, `config` or nothing. */
  readonly source: "modules.builtin" | "modules.dep" | "config" | null;
}

function listsModule(list: string, module: string): boolean {
  const key = moduleKey(module);
  for (const line of list.split(/\r?\n/)) {
    const path = line.split(":")[0]!.trim();
    const file = path.slice(path.lastIndexOf("/") + 1).replace(/\.ko(\.(xz|zst|gz))?$/, "");
    if (file !== path.slice(path.lastIndexOf("/") + 1) && moduleKey(file) === key) return true;
  }
  return false;
}

/**
 * The module lists decide when both were read (they are what modprobe itself uses); otherwise the build config's
 * symbol: `=y` built in, `=m` a module, anything else (not set, or its parent like CONFIG_USB not set) absent.
 */
export function kernelDriver(sources: KernelDriverSources, module: string, configSymbol: string): KernelDriverReading {
  if (sources.builtin !== null && listsModule(sources.builtin, module))
    return { driver: "built_in", source: "modules.builtin" };
  if (sources.dep !== null && listsModule(sources.dep, module)) return { driver: "module", source: "modules.dep" };
  if (sources.builtin !== null && sources.dep !== null) return { driver: "absent", source: "modules.dep" };
  if (sources.config !== null) {
    const value = new RegExp(`^${configSymbol}=(\\w+)`, "m").exec(sources.config)?.[1];
    const modulesOn = /^CONFIG_MODULES=y/m.test(sources.config);
    if (value === "y") return { driver: "built_in", source: "config" };
    if (value === "m" && modulesOn) return { driver: "module", source: "config" };
    return { driver: "absent", source: "config" };
  }
  return { driver: "unknown", source: null };
}
