import type { LoaderFunctionArgs } from "@remix-run/node";
import { screenFile } from "~/components/app-screen/svg-files.server";

/**
 * The drawn app screens as SVG images (components/app-screen/): a resource route, so the words
 * and the drawing come from the same modules as the page that names them. The name carries a
 * hash of the bytes, so a file is cached for a year; any other name is a plain 404 that repeats
 * nothing of the request.
 */
export function loader({ params }: LoaderFunctionArgs) {
  const body = screenFile(params.file ?? "");
  if (body === undefined) {
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(body, {
    headers: {
      "Content-Type": "image/svg+xml",
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
