import type { Listener } from "./listeners.js";

/** The host's listening TCP sockets and the table they were read from (recorded in the ports phase's facts). */
export interface SocketTable {
  readonly source: "proc_net_tcp" | "netstat";
  readonly listeners: Listener[];
}
