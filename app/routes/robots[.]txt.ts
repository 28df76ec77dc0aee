import type { LoaderFunctionArgs } from "@remix-run/node";
import { robotsTxt } from "~/pages/sitemap";
import { requestContext } from "~/platform/request-context.server";

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = requestContext(context);
  return new Response(robotsTxt(config.siteUrl), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
