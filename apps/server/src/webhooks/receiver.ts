/**
 * The receiver of a callback URL, for the per-receiver bound on deliveries in flight: its origin (scheme, host and
 * port, as the WHATWG URL standard defines it — lower-case host, default port dropped); the URL itself if it does
 * not parse (such a delivery fails as invalid_target on every attempt anyway).
 */
export function receiverOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
