import type { LoaderFunctionArgs } from "@remix-run/node";
import { sitemapXml } from "~/pages/sitemap";
import { requestContext } from "~/platform/request-context.server";

// A resource route: it never renders, so no page_view is ever sent for it (docs/product.md, Routes).
export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = requestContext(context);
  return new Response(sitemapXml(config.siteUrl), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
