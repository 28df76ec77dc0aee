/**
 * Pages that are the same for everyone who asks for them alike, answered from memory without
 * entering Remix (docs/decisions/003-render-cache.md). The key is worked out here from the
 * request with the same functions the page's loaders use, so a cached page is exactly the page
 * a render would give; the render (app/document/pipeline.server.tsx) keeps what it rendered under
 * that key, with a slot where each response puts its own nonce.
 */
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";
import { pageVariant, variantKey } from "~/pages/page-variant.server";
import type { DocumentKeeper } from "~/platform/request-context.server";
import { hasClickId } from "~/shared/campaign";
import { accepts } from "./accept-encoding";
import { createRenderCache } from "./render-cache";
import { NONCE_LENGTH } from "./security-headers";
import { filled, gzipped, type SplicedDocument, splice } from "./spliced-gzip";

const CACHEABLE_PATHS = new Set(["/", "/share", "/sitemap", "/ar", "/ar/share", "/ar/sitemap"]);

/**
 * The cache key for a document request, or null when it must be rendered for this request alone.
 * The path and what the page shows differently for the request (pages/page-variant.server.ts),
 * worked out by the function the render uses, so reordered parameters and junk share one entry. Campaign
 * words are free text, so any number of keys can arrive: tagged pages have a pool of their own
 * (createDocumentCache), and no stream of made-up campaigns can push out the untagged pages.
 *
 * A URL with an ad's click id is rendered for its request alone: the id is new for every click,
 * so its page would never be served again and would only push shared pages out of the cache.
 *
 * `experiment` is the running experiment's variant the page shows (server/experiments.ts), ""
 * for a visitor not taking part: each variant's page (the control's too, whose links name it) is
 * kept apart, and the page without a variant has the key it has without an experiment.
 */
export function documentKey(url: URL, headers: Headers, experiment = ""): string | null {
  if (!CACHEABLE_PATHS.has(url.pathname)) return null;
  // Remix's data requests for the same path are JSON, not this document.
  if (url.searchParams.has("_data")) return null;
  const variant = pageVariant(url, headers);
  if (hasClickId(variant.campaign)) return null;
  return `${url.pathname} ${experiment}${variantKey(variant)}`;
}

/** Whether a key is a tagged page's: its last part, the campaign query, is not empty. */
const isCampaignKey = (key: string) => !key.endsWith(" ");

/** The request headers `documentKey` reads, as the Headers it takes. */
function keyHeaders(headers: IncomingHttpHeaders): Headers {
  const picked = new Headers();
  for (const name of ["user-agent", "accept-language", "cookie"]) {
    const value = headers[name];
    if (value !== undefined) picked.set(name, [value].flat().join(", "));
  }
  return picked;
}

type CachedDocument = { page: SplicedDocument; headers: [string, string][] };

export type DocumentCache = {
  /** Answers a GET or HEAD from memory, or notes its key (`res.locals.documentKey`) and goes on. */
  middleware: RequestHandler;
  /** What the render needs to keep this response's document under `key`. */
  keeper: (key: string) => DocumentKeeper;
  collect: () => void;
  /** Entries kept: untagged pages and tagged ones. */
  size: () => { untagged: number; tagged: number };
  /** Requests for a cacheable page since start: answered from memory, or rendered. */
  counts: () => { hits: number; misses: number };
};

/**
 * Untagged pages (a few paths, platforms and language offers: under 100 keys) in one pool,
 * tagged pages in another of `maxEntries`, each dropping its least recently used entry.
 */
export function createDocumentCache({ maxEntries = 200 } = {}): DocumentCache {
  const untagged = createRenderCache<CachedDocument>({ maxEntries: 100 });
  const tagged = createRenderCache<CachedDocument>({ maxEntries });
  const poolOf = (key: string) => (isCampaignKey(key) ? tagged : untagged);
  // Random per process, so no visitor can put it in a page (a cached page shows the URL's
  // campaign, whose free-text values a visitor chooses).
  const slot = `nonce-slot-${randomBytes(12).toString("hex")}`;
  const counts = { hits: 0, misses: 0 };

  const middleware: RequestHandler = (request, response, next) => {
    if (request.method !== "GET" && request.method !== "HEAD") return next();
    // Parsed as @remix-run/express does, so "//x" stays a path and is never a host.
    const url = new URL(`http://localhost${request.url}`);
    const experiment = response.locals.experimentKey as string | undefined;
    const key = documentKey(url, keyHeaders(request.headers), experiment);
    response.locals.documentKey = key;
    const entry = key === null ? undefined : poolOf(key).get(key);
    if (key !== null) counts[entry ? "hits" : "misses"] += 1;
    if (!entry) return next();
    const nonce = String(response.locals.nonce);
    const gzip = accepts(request.headers["accept-encoding"], "gzip");
    const body = gzip ? gzipped(entry.page, nonce) : filled(entry.page, nonce);
    response.statusCode = 200;
    for (const [name, value] of entry.headers) response.setHeader(name, value);
    const vary = response.getHeader("Vary");
    response.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    if (gzip) response.setHeader("Content-Encoding", "gzip");
    response.setHeader("Content-Length", body.length);
    response.end(request.method === "HEAD" ? undefined : body);
  };

  return {
    middleware,
    keeper: (key) => ({
      slot,
      since: Date.now(),
      keep(html, headers, until) {
        // A cookie is one visitor's: a kept page never hands it to the next.
        const kept = [...headers].filter(
          ([name]) => name !== "content-length" && name !== "set-cookie",
        );
        poolOf(key).set(key, { page: splice(html, slot, NONCE_LENGTH), headers: kept }, until);
      },
    }),
    collect: () => {
      untagged.collect();
      tagged.collect();
    },
    size: () => ({ untagged: untagged.size(), tagged: tagged.size() }),
    counts: () => ({ ...counts }),
  };
}
