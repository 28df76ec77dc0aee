import { getConfig } from "~/lib/config.server";
import { sitemapXml } from "~/lib/sitemap";

// A resource route: it never renders, so no page_view is ever sent for it (spec §2).
export async function loader() {
  return new Response(sitemapXml(getConfig().siteUrl), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
