import type { MetaDescriptor } from "@remix-run/node";
import { getConfig } from "~/lib/config.server";
import { choosePlatform, type Platform } from "~/lib/platform";
import { type PageHead, pageMeta } from "~/lib/seo";

/**
 * A page's head tags, built on the server for this request (its platform, SITE_URL) and sent
 * as loader data: the head's copy, wording per platform and JSON-LD never ship as JavaScript.
 */
export function headFor(request: Request, head: PageHead): MetaDescriptor[] {
  return pageMeta(head, { siteUrl: getConfig().siteUrl, platform: platformOf(request) });
}

export function platformOf(request: Request): Platform {
  const url = new URL(request.url);
  return choosePlatform(url.searchParams, request.headers.get("user-agent"));
}
