// The probe helper's process (see ./link.ts for why a second process): wires HelperProber to the IPC channel.
// Built as its own entry (dist/probe-helper.js in the package); from the sources it runs through tsx.
import { loadTcpWrap } from "../tcp-wrap.js";
import { HelperProber } from "./prober.js";
import type { HelperMessage } from "./protocol.js";
import { startHelper } from "./start.js";

const send = (message: HelperMessage, then?: () => void) => {
  if (process.connected) process.send?.(message, undefined, undefined, then);
};

startHelper({
  binding: loadTcpWrap(),
  send,
  onMessage: (listener) => process.on("message", listener),
  exit: () => process.exit(0),
  prober: (binding) =>
    new HelperProber(binding, {
      send,
      now: () => performance.now(),
      afterPoll: (fn) => setImmediate(fn),
      every: (ms, fn) => {
        const timer = setInterval(fn, ms);
        return () => clearInterval(timer);
      },
      usage: () => {
        const u = process.resourceUsage();
        return { rss: process.memoryUsage.rss(), maxRss: u.maxRSS * 1024, cpu: u.userCPUTime + u.systemCPUTime };
      },
    }),
});
// The parent exited, crashed or closed the channel: nothing left to probe for.
process.on("disconnect", () => process.exit(0));
