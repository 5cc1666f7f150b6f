import type { Socket } from "node:net";
import dns2 from "dns2";
import { SamplePracticesError } from "./errors.js";
import { answerQuery, txtCharacterStrings, type Zone, type ZoneRecord } from "./zone.js";

const { Packet } = dns2;

export interface ZoneDnsServer {
  readonly host: string;
  readonly port: number;
  /** Queries answered so far (tests use it to prove which names were asked). */
  readonly queries: readonly { name: string; type: string }[];
  stop(): Promise<void>;
}

const TYPE_NAMES = new Map(Object.entries(Packet.TYPE).map(([name, code]) => [code as number, name]));
const TTL = 60;
// RFC 1035 §4.1.1 response codes (dns2 has them at runtime but not in its type declarations).
const RCODE = { FORMERR: 1, NXDOMAIN: 3, REFUSED: 5 } as const;

function toResource(record: ZoneRecord, questionName: string): Record<string, unknown> {
  const base = {
    name: record.name === questionName.toLowerCase() ? questionName : record.name,
    class: Packet.CLASS.IN,
    ttl: TTL,
  };
  switch (record.type) {
    case "A":
      return { ...base, type: Packet.TYPE.A, address: record.address };
    case "AAAA":
      return { ...base, type: Packet.TYPE.AAAA, address: record.address };
    case "MX":
      return { ...base, type: Packet.TYPE.MX, exchange: record.exchange, priority: record.priority };
    case "TXT":
      return { ...base, type: Packet.TYPE.TXT, data: txtCharacterStrings(record.text) };
    case "CNAME":
      return { ...base, type: Packet.TYPE.CNAME, domain: record.target };
  }
}

/**
 * An authoritative DNS server for the sample zones on 127.0.0.1, over UDP and TCP on the same port (c-ares
 * retries over TCP when an answer is truncated). Built on dns2; the answers come from the pure answerQuery.
 */
export async function startZoneDnsServer(
  zone: Zone,
  options: { host?: string; port?: number } = {},
): Promise<ZoneDnsServer> {
  const host = options.host ?? "127.0.0.1";
  const queries: { name: string; type: string }[] = [];
  const handle: dns2.DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const question = request.questions[0];
    if (!question) {
      response.header.rcode = RCODE.FORMERR;
      void send(response);
      return;
    }
    const type = TYPE_NAMES.get(question.type) ?? String(question.type);
    queries.push({ name: question.name.toLowerCase(), type });
    const answer = answerQuery(zone, question.name, type);
    if (answer.rcode === "NOERROR") {
      for (const record of answer.answers) response.answers.push(toResource(record, question.name) as never);
    } else {
      response.header.rcode = answer.rcode === "NXDOMAIN" ? RCODE.NXDOMAIN : RCODE.REFUSED;
    }
    void send(response);
  };
  // UDP first on the requested (or any) port, then TCP on the same port, which another process may hold.
  for (let attempt = 0; ; attempt++) {
    const udp = dns2.createUDPServer(handle);
    const tcp = dns2.createTCPServer(handle);
    // c-ares may keep a TCP connection open; stop() must not wait for dns2's 10 s idle timeout.
    const sockets = new Set<Socket>();
    tcp.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
    });
    const close = async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    };
    try {
      await bound(udp, (done) => udp.bind(options.port ?? 0, host, done));
      const port = udp.address().port;
      await bound(tcp, (done) => tcp.listen(port, host, done));
      return { host, port, queries, stop: close };
    } catch (error) {
      udp.removeAllListeners("error");
      try {
        udp.close();
      } catch {
        // Never bound: nothing to close.
      }
      tcp.close();
      if (options.port || (error as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt >= 4) {
        throw SamplePracticesError.fromBind(error, `${host}:${options.port ?? 0} (DNS)`);
      }
    }
  }
}

function bound(emitter: NodeJS.EventEmitter, start: (done: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    emitter.once("error", reject);
    start(() => {
      emitter.removeListener("error", reject);
      resolve();
    });
  });
}
