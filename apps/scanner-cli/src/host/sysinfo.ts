import si from "systeminformation";
import {
  type BlockDevice,
  type NetworkConnection,
  type NetworkInterface,
  type OsInfo,
  type ProcessInfo,
  type SysInfo,
  UNKNOWN_OS,
} from "./host.js";

/**
 * The one wrapper over systeminformation. Each call degrades to an empty answer when the library fails (it shells
 * out to tools that may be missing), so a phase sees "nothing known" rather than an exception.
 * Process command-line parameters are deliberately dropped: they can hold passwords and tokens.
 *
 * Several phases (and the scan command) ask the same questions: one scan read the OS four times, the process list
 * three times and the interfaces twice, and each read spawns processes. The reads that do not change during a scan
 * are therefore made once per wrapper and their first answer is reused: the promise itself, so concurrent callers
 * share one read, and never a rejection ({@link guard} turns failures into the fallback). One real host, hence one
 * wrapper, is built per run, so the cache lives exactly one scan; the process list becomes one snapshot per scan,
 * taken by the first phase that asks. Connections (which the scan's own probes change), the gateway, block devices
 * and users are read afresh on every call.
 */
export function createSysInfo(): SysInfo {
  return {
    osInfo: once(() => guard(readOsInfo, UNKNOWN_OS)),
    networkInterfaces: once(() => guard(readInterfaces, [])),
    defaultGateway: () => guard(async () => (await si.networkGatewayDefault()) || null, null),
    system: once(() =>
      guard(
        async () => {
          const s = await si.system();
          return { manufacturer: s.manufacturer, model: s.model, serial: s.serial, virtual: s.virtual === true };
        },
        { manufacturer: "", model: "", serial: "", virtual: false },
      ),
    ),
    cpu: once(() =>
      guard(
        async () => {
          const c = await si.cpu();
          return { brand: [c.manufacturer, c.brand].filter(Boolean).join(" "), cores: c.cores };
        },
        { brand: "", cores: 0 },
      ),
    ),
    memoryBytes: once(() => guard(async () => (await si.mem()).total, 0)),
    blockDevices: () => guard(readBlockDevices, []),
    users: () => guard(async () => (await si.users()).map((u) => ({ user: u.user, tty: u.tty, date: u.date })), []),
    processes: once(() => guard(readProcesses, [])),
    networkConnections: () => guard(readConnections, []),
  };
}

/** A parameterless read made at the first call; later calls get the same promise. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let first: Promise<T> | undefined;
  return () => {
    first ??= read();
    return first;
  };
}

async function guard<T>(read: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await read();
  } catch {
    return fallback;
  }
}

async function readOsInfo(): Promise<OsInfo> {
  const o = await si.osInfo();
  return {
    platform: o.platform,
    distro: o.distro,
    release: o.release,
    codename: o.codename,
    kernel: o.kernel,
    arch: o.arch,
    hostname: o.fqdn || o.hostname,
    build: o.build,
  };
}

async function readInterfaces(): Promise<NetworkInterface[]> {
  const list = await si.networkInterfaces();
  return (Array.isArray(list) ? list : [list]).map((i) => ({
    iface: i.iface,
    ip4: i.ip4,
    ip4subnet: i.ip4subnet,
    ip6: i.ip6,
    mac: i.mac,
    internal: i.internal,
    virtual: i.virtual,
    operstate: i.operstate,
  }));
}

async function readBlockDevices(): Promise<BlockDevice[]> {
  return (await si.blockDevices()).map((d) => ({
    name: d.name,
    type: d.type,
    fsType: d.fsType,
    mount: d.mount,
    size: d.size,
    removable: d.removable,
    label: d.label,
  }));
}

async function readProcesses(): Promise<ProcessInfo[]> {
  return (await si.processes()).list.map((p) => ({
    pid: p.pid,
    name: p.name,
    command: p.path ? `${p.path.replace(/[\\/]$/, "")}/${p.command}` : p.command,
    user: p.user,
  }));
}

async function readConnections(): Promise<NetworkConnection[]> {
  return (await si.networkConnections()).map((c) => ({
    protocol: c.protocol,
    localAddress: c.localAddress,
    localPort: c.localPort,
    peerAddress: c.peerAddress,
    peerPort: c.peerPort,
    state: c.state,
    pid: c.pid,
    process: c.process,
  }));
}
