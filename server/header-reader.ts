import type { IncomingHttpHeaders } from "node:http";
import type { HeaderReader } from "~/leads/visitor.server";

/** A request's headers as the app reads them, without copying them all into a Headers. */
export function headerReader(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name];
      return value === undefined ? null : [value].flat().join(", ");
    },
  };
}
