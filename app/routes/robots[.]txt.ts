import { getConfig } from "~/platform/config.server";
import { robotsTxt } from "~/shared/sitemap";

export async function loader() {
  const config = getConfig();
  return new Response(robotsTxt(config.siteUrl), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
