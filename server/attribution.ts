/**
 * The campaign and click ids a visitor's browser keeps between visits, and Meta's browser id
 * (app/leads/attribution-cookies.server.ts): set on a page's response, whether the page comes
 * from the document cache or a render, so it runs before the cache. The cookies change no page:
 * the cache's key never reads them, and each response says its own Set-Cookie.
 */
import type { RequestHandler } from "express";
import { attributionOfRequest } from "~/leads/attribution-cookies.server";
import type { Config } from "~/settings.server";
import { headerReader } from "./header-reader";

export function attribution(config: Config): RequestHandler {
  return (request, response, next) => {
    // Most requests are the page's assets: never a page, so never parsed.
    if (request.method !== "GET" || request.url.startsWith("/build/")) return next();
    // Parsed as @remix-run/express does, so "//x" stays a path and is never a host.
    const url = new URL(`http://localhost${request.url}`);
    const kept = attributionOfRequest(config, {
      method: request.method,
      url,
      headers: headerReader(request.headers),
    });
    if (kept) {
      for (const cookie of kept.setCookies) response.append("Set-Cookie", cookie);
      // For /thank-you's loader: this response's own, when the request carried none yet.
      response.locals.attribution = kept;
    }
    next();
  };
}
