import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { documentResponse } from "~/document/pipeline.server";
import { requestContext } from "~/server/request-context.server";

/** Every document: see document/pipeline.server.tsx. */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  return documentResponse({
    request,
    status: responseStatusCode,
    headers: responseHeaders,
    remixContext,
    context: requestContext(loadContext),
  });
}

// Loader data of one visitor's request is theirs alone.
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  if (!response.headers.has("Cache-Control")) {
    response.headers.set("Cache-Control", "private, no-cache");
  }
  return response;
};
