import { randomBytes } from "node:crypto";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { staticParts } from "~/components/static-parts.server";
import { bootAfterFirstPaint } from "~/document/boot-script.server";
import { renderAllBeforeJumps } from "~/document/render-before-jumps.server";
import { createRenderCache, renderCacheKey } from "~/document/render-cache.server";
import {
  acceptsGzip,
  filled,
  gzipped,
  type SplicedDocument,
  splice,
} from "~/document/spliced-gzip.server";
import { StaticPartsContext } from "~/document/static-parts";
import { NonceProvider } from "~/hooks/use-nonce";
import { checkConfigAtStart, getConfig } from "~/server/config.server";
import { installRequestGuard } from "~/server/request-guard.server";
import { applySecurityHeaders } from "~/server/security-headers.server";

// Validate the environment when the build is imported, before remix-serve listens: one line
// and exit code 1 on a bad setting (HOST is looked up, so this waits for DNS).
await checkConfigAtStart();
installRequestGuard();

const development = process.env.NODE_ENV === "development";
const cache = createRenderCache<SplicedDocument>();
// Unused pages leave memory even when no request comes to trigger it.
setInterval(cache.collect, 60_000).unref();

/**
 * Where a cached document's nonce goes: random per process, so no visitor can put it in a page
 * (a cached page shows the URL's campaign, whose free-text values a visitor chooses).
 */
const NONCE_SLOT = `nonce-slot-${randomBytes(12).toString("hex")}`;

/**
 * The whole document as one string: pages here have no deferred data, so there is nothing to
 * stream. Not renderToPipeableStream: React 18.3's stream writer leaves NUL bytes in its output
 * where a multi-byte character meets the end of its 2 KB buffer (facebook/react#31134), which
 * Arabic text does on nearly every page. An error thrown here reaches Remix, which renders the
 * error boundary instead.
 */
function render(request: Request, remixContext: EntryContext, nonce: string): string {
  return `<!DOCTYPE html>${renderToString(
    <NonceProvider value={nonce}>
      <StaticPartsContext.Provider value={staticParts}>
        <RemixServer context={remixContext} url={request.url} />
      </StaticPartsContext.Provider>
    </NonceProvider>,
  )}`;
}

/** The rendered document with its scripts rewritten: see each module. */
function finished(html: string): string {
  return renderAllBeforeJumps(bootAfterFirstPaint(html));
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const config = getConfig();
  installRequestGuard();
  const nonce = randomBytes(16).toString("base64");
  const url = new URL(request.url);
  const root = remixContext.staticHandlerContext.loaderData.root as
    | { platform: string; suggest: boolean }
    | undefined;
  const key =
    config.renderCache && root && responseStatusCode === 200 && request.method === "GET"
      ? renderCacheKey(url, root)
      : null;

  let body: Buffer | string;
  if (key) {
    let page = cache.get(key);
    if (!page) {
      const html = render(request, remixContext, NONCE_SLOT);
      responseStatusCode = remixContext.staticHandlerContext.statusCode;
      page = splice(finished(html), NONCE_SLOT, nonce.length);
      if (responseStatusCode === 200) cache.set(key, page);
    }
    // Compressed once when cached: remix-serve's gzip leaves an encoded body alone.
    if (acceptsGzip(request.headers.get("accept-encoding"))) {
      body = gzipped(page, nonce);
      responseHeaders.set("Content-Encoding", "gzip");
    } else {
      body = filled(page, nonce);
    }
    responseHeaders.append("Vary", "Accept-Encoding");
  } else {
    body = finished(render(request, remixContext, nonce));
    responseStatusCode = remixContext.staticHandlerContext.statusCode;
  }

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // A nonce must never be handed to a second visitor by a shared cache.
  if (!responseHeaders.has("Cache-Control")) {
    responseHeaders.set("Cache-Control", "private, no-cache");
  }
  // The preview's wording follows the crawler; the language offer, Accept-Language and its cookie.
  responseHeaders.append("Vary", "User-Agent, Accept-Language, Cookie");
  applySecurityHeaders(responseHeaders, { siteUrl: config.siteUrl, development, nonce });
  // Buffer.concat's bytes live in a plain ArrayBuffer, which is what BodyInit asks for.
  return new Response(body as string | Uint8Array<ArrayBuffer>, {
    status: responseStatusCode,
    headers: responseHeaders,
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applySecurityHeaders(response.headers, { siteUrl: getConfig().siteUrl, development });
  if (!response.headers.has("Cache-Control")) {
    response.headers.set("Cache-Control", "private, no-cache");
  }
  return response;
};
