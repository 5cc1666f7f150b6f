// Baseline for bench/grade-lookup: a bare Koa app over HTTPS that answers the grade path with a fixed JSON body
// (no auth, no rate limit, no credits, no audit, no database). Same TLS material as the real server.
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import Koa from "koa";

const [certFile, keyFile, bodyFile] = process.argv.slice(2) as [string, string, string];
const body = readFileSync(bodyFile, "utf8");
const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === "GET" && ctx.path.startsWith("/v1/a2a/grade/")) {
    ctx.type = "application/json";
    ctx.body = body;
    return;
  }
  ctx.status = 404;
});
const server = createServer(
  { cert: readFileSync(certFile), key: readFileSync(keyFile), minVersion: "TLSv1.2" },
  app.callback(),
);
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`bare listening on https://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
