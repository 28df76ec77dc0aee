import { getConfig } from "~/lib/config.server";
import { resourceHeaders } from "~/lib/security-headers.server";
import { robotsTxt } from "~/lib/sitemap";

export async function loader() {
  const config = getConfig();
  return new Response(robotsTxt(config.siteUrl), {
    headers: resourceHeaders(
      {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "public, max-age=3600",
      },
      config,
    ),
  });
}
