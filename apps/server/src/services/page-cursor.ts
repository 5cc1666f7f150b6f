import type { z } from "zod";
import { ServiceError } from "../errors.js";

/**
 * The opaque `next_cursor` of a keyset-paginated list: the sort key of the page's last row, as base64url JSON. A
 * cursor that does not decode to the list's sort key (tampered, from another list) is refused as invalid_query.
 */
export function pageCursor<S extends z.ZodType>(schema: S) {
  return {
    encode: (key: z.infer<S>): string => Buffer.from(JSON.stringify(key), "utf8").toString("base64url"),
    decode(text: string): z.infer<S> {
      try {
        return schema.parse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
      } catch {
        throw new ServiceError("invalid_query", "cursor is not one this service issued; start again without it", {
          issues: [{ path: "cursor", message: "not a cursor from a previous page" }],
        });
      }
    },
  };
}
