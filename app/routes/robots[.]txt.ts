import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestContext } from "~/platform/request-context.server";
import { robotsTxt } from "~/shared/sitemap";

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = requestContext(context);
  return new Response(robotsTxt(config.siteUrl), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
