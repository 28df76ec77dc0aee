import type { LoaderFunctionArgs } from "@remix-run/node";
import { recordNoJsView } from "~/analytics/no-js-view.server";
import { bounded, logLine } from "~/platform/log-line.server";
import { requestContext } from "~/platform/request-context.server";

/** A transparent 1×1 GIF (43 bytes): what every browser draws for an <img>, and draws as nothing. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");

/**
 * The no-JS view's image (analytics/no-js-view.ts): the same pixel whether the view counted or not
 * (a bot, a reload or a capped address learn nothing, and no page shows a broken image), never
 * kept by a cache, so each page load asks again; 400 for an address no page of ours makes.
 */
export async function loader({ request, context: loadContext }: LoaderFunctionArgs) {
  const context = requestContext(loadContext);
  const verdict = await recordNoJsView(context, request).catch((error: unknown) => {
    // Never the visitor's problem: the view is simply not counted.
    context.services.log(
      logLine("view_error", { error: bounded(String((error as Error)?.message), 300) }),
    );
    return "not_tracked" as const;
  });
  if (verdict === "bad") {
    return new Response("Not a page of this site.\n", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(PIXEL, {
    headers: {
      "Content-Type": "image/gif",
      "Content-Length": String(PIXEL.length),
      "Cache-Control": "no-store",
    },
  });
}
