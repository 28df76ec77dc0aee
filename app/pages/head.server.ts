import type { MetaDescriptor } from "@remix-run/node";
import { getConfig } from "~/platform/config.server";
import { choosePlatform, type Platform } from "~/shared/platform";
import { type PageKey, pageHead, pageMeta } from "~/shared/seo";

/**
 * A page's head tags, built on the server for this request and sent as loader data: the head's
 * copy and wording per platform never ship as JavaScript. The loader names the page; the
 * request's path says the language (/ar… is Arabic), so the same route module serves both the
 * English page and its Arabic twin: `headFor(request, "home")`. The JSON-LD is not here: it
 * would travel twice (in the head and in the loader data), so the landing page renders it as a
 * static part (components/StructuredData.server.tsx).
 */
export function headFor(
  request: Request,
  page: PageKey,
  /** What this request's page says differently, e.g. /thank-you's title per CTA. */
  override?: { title: string },
): MetaDescriptor[] {
  const config = getConfig();
  const { locale, head } = pageHead(page, new URL(request.url).pathname);
  return pageMeta(
    { ...head, ...override },
    { siteUrl: config.siteUrl, platform: platformOf(request), locale },
  );
}

export function platformOf(request: Request): Platform {
  const url = new URL(request.url);
  return choosePlatform(url.searchParams, request.headers.get("user-agent"));
}
