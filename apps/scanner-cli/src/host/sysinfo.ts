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
 */
export function createSysInfo(): SysInfo {
  return {
    osInfo: () => guard(readOsInfo, UNKNOWN_OS),
    networkInterfaces: () => guard(readInterfaces, []),
    defaultGateway: () => guard(async () => (await si.networkGatewayDefault()) || null, null),
    system: () =>
      guard(
        async () => {
          const s = await si.system();
          return { manufacturer: s.manufacturer, model: s.model, serial: s.serial, virtual: s.virtual === true };
        },
        { manufacturer: "", model: "", serial: "", virtual: false },
      ),
    cpu: () =>
      guard(
        async () => {
          const c = await si.cpu();
          return { brand: [c.manufacturer, c.brand].filter(Boolean).join(" "), cores: c.cores };
        },
        { brand: "", cores: 0 },
      ),
    memoryBytes: () => guard(async () => (await si.mem()).total, 0),
    blockDevices: () => guard(readBlockDevices, []),
    users: () => guard(async () => (await si.users()).map((u) => ({ user: u.user, tty: u.tty, date: u.date })), []),
    processes: () => guard(readProcesses, []),
    networkConnections: () => guard(readConnections, []),
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
