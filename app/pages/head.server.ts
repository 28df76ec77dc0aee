import type { AppLoadContext, MetaDescriptor } from "@remix-run/node";
import { variantOf } from "~/pages/page-variant.server";
import { type PageKey, pageHead, pageMeta } from "~/pages/seo";
import { requestContext } from "~/platform/request-context.server";

/**
 * A page's head tags, built on the server for this request and sent as loader data: the head's
 * copy and wording per platform never ship as JavaScript. The loader names the page; the
 * request's path says the language (/ar… is Arabic), so the same route module serves both the
 * English page and its Arabic twin: `headFor(request, context, "home")`. The JSON-LD is not here: it
 * would travel twice (in the head and in the loader data), so the landing page renders it as a
 * static part (components/StructuredData.server.tsx).
 */
export function headFor(
  request: Request,
  loadContext: AppLoadContext | undefined,
  page: PageKey,
  /** What this request's page says differently, e.g. /thank-you's title per CTA. */
  override?: { title: string },
): MetaDescriptor[] {
  const { siteUrl } = requestContext(loadContext).config;
  const { locale, head } = pageHead(page, new URL(request.url).pathname);
  return pageMeta(
    { ...head, ...override },
    { siteUrl, platform: variantOf(request).platform, locale },
  );
}
