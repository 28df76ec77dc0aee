import type { MetaDescriptor } from "@remix-run/node";
import type { Graph, Thing, WithContext } from "schema-dts";
import { getConfig } from "~/lib/config.server";
import { choosePlatform, type Platform } from "~/lib/platform";
import { type PageKey, pageHead, pageMeta } from "~/lib/seo";
import type { StructuredDataContext } from "~/lib/structured-data";

export type HeadOptions = {
  /** The page's JSON-LD, built for the language of the request (e.g. `landingGraph`). */
  structuredData?: (context: StructuredDataContext) => WithContext<Thing> | Graph;
};

/**
 * A page's head tags, built on the server for this request and sent as loader data: the head's
 * copy, wording per platform and JSON-LD never ship as JavaScript. The loader names the page;
 * the request's path says the language (/ar… is Arabic), so the same route module serves both
 * the English page and its Arabic twin. `headFor(request, "home", { structuredData: landingGraph })`.
 */
export function headFor(
  request: Request,
  page: PageKey,
  options: HeadOptions = {},
): MetaDescriptor[] {
  const config = getConfig();
  const { locale, head } = pageHead(page, new URL(request.url).pathname);
  const structuredData = options.structuredData?.({
    siteUrl: config.siteUrl,
    email: config.contactEmail,
    phone: config.contactPhone,
    locale,
  });
  return pageMeta(
    { ...head, structuredData },
    { siteUrl: config.siteUrl, platform: platformOf(request), locale },
  );
}

export function platformOf(request: Request): Platform {
  const url = new URL(request.url);
  return choosePlatform(url.searchParams, request.headers.get("user-agent"));
}
