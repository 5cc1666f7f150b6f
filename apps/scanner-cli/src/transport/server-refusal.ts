/**
 * The server said no: status and its error code (the error body of docs/api.md#errors). Kept apart from the HTTP client
 * (and its got import) so that bin.ts can recognise a refusal without loading the client at start-up.
 */
export class ServerRefusal extends Error {
  override readonly name = "ServerRefusal";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | undefined,
  ) {
    super(message);
  }
}
