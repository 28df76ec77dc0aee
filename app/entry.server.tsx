import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from "@remix-run/node";
import { documentResponse } from "~/document/pipeline.server";
import { remixErrorLine } from "~/platform/remix-error-line.server";
import { requestContext } from "~/platform/request-context.server";

/**
 * The app's code the app's own server runs (config, log lines, services, the document cache's
 * key), taken from this build through `build.entry.module` (server/app.ts) so that it is bundled
 * once: see platform/server-api.server.ts.
 */
export * as serverApi from "~/platform/server-api.server";

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

/**
 * Remix's errors as one JSON line each (app/platform/remix-error-line.server.ts), in place of Remix's
 * default, which prints the error with a stack to stderr, client text included (a `_data` value
 * with a line break in it could forge a log line). An aborted request is nobody's error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  requestContext(context).services.log(remixErrorLine(error, request));
};
