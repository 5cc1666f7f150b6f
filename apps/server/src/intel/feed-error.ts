/**
 * Why a feed file was refused, with where: the 1-based row of the file (the header is row 1) and the column's
 * header name, when the fault sits in one cell. Importers throw it before anything is written, so a refused file
 * leaves the stored data exactly as it was.
 */
export type FeedErrorCode =
  | "feed_too_large"
  | "feed_empty"
  | "feed_not_utf8"
  | "feed_malformed"
  | "feed_wrong_columns"
  | "feed_bad_value"
  | "feed_schema_mismatch"
  | "feed_duplicate_rows"
  | "feed_download_failed";

export interface FeedPosition {
  /** 1-based line-independent record number of a CSV (header = 1), or the array index of a JSON entry. */
  readonly row?: number;
  readonly column?: string;
}

export class FeedError extends Error {
  constructor(
    readonly code: FeedErrorCode,
    message: string,
    readonly at: FeedPosition = {},
  ) {
    super(message);
    this.name = "FeedError";
  }
}

export function isFeedError(err: unknown): err is FeedError {
  return err instanceof FeedError;
}

/** Where a message points: "row 12, column State: ". */
export function where(at: FeedPosition): string {
  const parts = [at.row !== undefined ? `row ${at.row}` : "", at.column ? `column "${at.column}"` : ""].filter(Boolean);
  return parts.length ? `${parts.join(", ")}: ` : "";
}
