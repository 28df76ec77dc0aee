/**
 * How a document request becomes a response, in one place: render → rewrite → keep → respond
 * (docs/decisions/003-render-cache.md). Remix's document handler (entry.server.tsx) calls it; the
 * app's own server answers the next requests alike from what was kept, without Remix.
 */
import type { EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { StaticPartsContext } from "~/components/static-parts";
import { bootAfterFirstPaint } from "~/document/boot-script.server";
import { withCountdownStart } from "~/document/countdown-start.server";
import { sendHeadOnce } from "~/document/handoff.server";
import { keptUntil } from "~/document/kept-until.server";
import { VariantCopyContext } from "~/experiments/variant-copy.server";
import { variantCopyOf } from "~/experiments/visit.server";
import { CopySettingsContext } from "~/hooks/use-copy.server";
import { NonceProvider } from "~/hooks/use-nonce";
import { staticParts } from "~/landing/static-parts.server";
import type { Config } from "~/platform/config.server";
import type { RequestContext } from "~/platform/request-context.server";
import type { VariantCopy } from "~/shared/experiment";

/**
 * The whole document as one string: pages here have no deferred data, so there is nothing to
 * stream. Not renderToPipeableStream: React 18.3's stream writer leaves NUL bytes in its output
 * where a multi-byte character meets the end of its 2 KB buffer (facebook/react#31134), which
 * Arabic text does on nearly every page. An error thrown here reaches Remix, which renders the
 * error boundary instead.
 */
function render(
  request: Request,
  remixContext: EntryContext,
  nonce: string,
  variantCopy: VariantCopy | null,
  config: Config,
): string {
  // The settings are the process's, as the render cache is: a kept page has this server's words.
  return `<!DOCTYPE html>${renderToString(
    <NonceProvider value={nonce}>
      <StaticPartsContext.Provider value={staticParts}>
        <CopySettingsContext.Provider value={config}>
          <VariantCopyContext.Provider value={variantCopy}>
            <RemixServer context={remixContext} url={request.url} />
          </VariantCopyContext.Provider>
        </CopySettingsContext.Provider>
      </StaticPartsContext.Provider>
    </NonceProvider>,
  )}`;
}

const development = process.env.NODE_ENV === "development";

export function documentResponse({
  request,
  status,
  headers,
  remixContext,
  context,
}: {
  request: Request;
  status: number;
  headers: Headers;
  remixContext: EntryContext;
  context: RequestContext;
}): Response {
  // Only a page that renders as it is for everyone asking alike is kept (the server decided).
  const keeper = status === 200 && request.method === "GET" ? context.documentKeeper : null;
  // The <head> carries the page's head tags; the hydration data need not carry them again.
  if (!development)
    remixContext.serverHandoffString = sendHeadOnce(remixContext.serverHandoffString);
  const nonce = keeper?.slot ?? context.nonce;
  const rendered = withCountdownStart(
    render(
      request,
      remixContext,
      nonce,
      variantCopyOf(context.config, context.assignment),
      context.config,
    ),
    nonce,
    context.config.betaClosesAt,
  );
  // Development's script (live reload) is not production's: it starts as Remix starts it.
  let html = development ? rendered : bootAfterFirstPaint(rendered);
  // The route's error boundary may have changed it while rendering.
  const finalStatus = remixContext.staticHandlerContext.statusCode;

  headers.set("Content-Type", "text/html; charset=utf-8");
  // A nonce must never be handed to a second visitor by a shared cache.
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-cache");
  // The preview's wording follows the crawler; the language offer, Accept-Language and its cookie.
  headers.append("Vary", "User-Agent, Accept-Language, Cookie");

  if (keeper) {
    // Not past the moment its words about the date change, counted from the request's arrival.
    if (finalStatus === 200) {
      keeper.keep(html, headers, keptUntil(keeper.since, context.config.betaClosesAt));
    }
    html = html.replaceAll(keeper.slot, context.nonce);
  }
  return new Response(html, { status: finalStatus, headers });
}
