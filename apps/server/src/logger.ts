import pino, { type Logger } from "pino";

/**
 * The server's logger. Credentials are redacted wherever they might appear (headers, bodies logged by mistake);
 * request logs carry key ids, never keys.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "hcs-server" },
      redact: {
        paths: [
          "req.headers.authorization",
          'req.headers["x-api-key"]',
          "headers.authorization",
          'headers["x-api-key"]',
          "api_key",
          "*.api_key",
          "deploy_token",
          "*.deploy_token",
          "webhookSecret",
          "secret",
        ],
        censor: "[redacted]",
      },
    },
    destination,
  );
}
