/**
 * The browser build (public/build: scripts and the stylesheet, content-hashed), answered from
 * memory: read once at start with the brotli and gzip copies the build wrote beside each file
 * (scripts/precompress.mjs), and sent as they are, immutable for a year. A first visit's 16
 * files cost the server about 23 ms of CPU through express.static, and 11 ms more compressed
 * on the fly (measured: docs/performance.md); from memory they cost a fraction of that, and
 * brotli 11 is a sixth smaller than what on-the-fly compression sends.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import type { RequestHandler } from "express";
import { accepts } from "./accept-encoding";

const TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".avif": "image/avif",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
};

type Asset = { type: string; identity: Buffer; br?: Buffer; gzip?: Buffer };

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (!/\.(br|gz)$/.test(entry.name)) yield path;
  }
}

/** Every file under `dir`, by its URL path under `prefix` ("/build/"). */
export function loadBuildAssets(dir: string, prefix: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(dir)) return assets;
  for (const path of walk(dir)) {
    const url = `${prefix}${relative(dir, path).split(sep).join("/")}`;
    const copy = (suffix: string) =>
      existsSync(`${path}${suffix}`) ? readFileSync(`${path}${suffix}`) : undefined;
    assets.set(url, {
      type: TYPES[extname(path)] ?? "application/octet-stream",
      identity: readFileSync(path),
      br: copy(".br"),
      gzip: copy(".gz"),
    });
  }
  return assets;
}

/**
 * Answers GET and HEAD for the files in `assets`; anything else under the prefix goes on (to the
 * not-found page).
 */
export function buildAssets(assets: Map<string, Asset>): RequestHandler {
  return (request, response, next) => {
    if (request.method !== "GET" && request.method !== "HEAD") return next();
    const asset = assets.get(request.path);
    if (!asset) return next();
    // Brotli whenever it is taken: browsers list it last ("gzip, deflate, br") but it is smaller.
    const header = request.headers["accept-encoding"];
    const coding =
      asset.br && accepts(header, "br")
        ? "br"
        : asset.gzip && accepts(header, "gzip")
          ? "gzip"
          : "identity";
    const body = coding === "br" ? asset.br : coding === "gzip" ? asset.gzip : asset.identity;
    response.statusCode = 200;
    response.setHeader("Content-Type", asset.type);
    response.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    response.setHeader("Vary", "Accept-Encoding");
    if (coding !== "identity") response.setHeader("Content-Encoding", coding);
    response.setHeader("Content-Length", (body as Buffer).length);
    response.end(request.method === "HEAD" ? undefined : body);
  };
}
