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
 * The app's own server (server/main.ts), bundled here with the app so that every module, and its
 * state, exists once: server-build/*.js import this build and call it (server/load-build.ts).
 */
export * as server from "../server/main";

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
