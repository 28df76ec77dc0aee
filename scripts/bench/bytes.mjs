// What a first visit to / downloads, gzipped at level 6 as `compression` sends it (the /build files go out
// precompressed, smaller still).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { constants, gzipSync } from "node:zlib";

// zlib's default level (6) is what `compression` uses, so these are the bytes on the wire.
const LEVEL = constants.Z_DEFAULT_COMPRESSION;
const COMPRESSED = /\.(js|mjs|css|html|svg|json|txt|xml)$/i;

const attribute = (tag, name) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i")
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined);

/** The same-origin files the HTML makes a browser fetch before it is idle, by kind. */
export function assetsOf(html) {
  const found = new Map();
  const add = (href, kind) => {
    if (!href || /^(data:|[a-z]+:\/\/|\/\/)/i.test(href)) return;
    if (!found.has(href)) found.set(href, kind);
  };
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) add(attribute(tag, "src"), "js");
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attribute(tag, "rel") ?? "").toLowerCase().split(/\s+/);
    const href = attribute(tag, "href");
    if (rel.includes("stylesheet")) add(href, "css");
    // The site turns Remix's module preloads into idle prefetches: still part of a first visit.
    else if (
      rel.includes("modulepreload") ||
      (rel.includes("prefetch") && /\.js$/.test(href ?? ""))
    )
      add(href, "js");
    else if (rel.includes("icon") || rel.includes("preload")) add(href, "other");
  }
  // Remix's inline module script imports the manifest, the entry and the route modules.
  for (const [, href] of html.matchAll(/\bimport\s*(?:[\w*{}\s,]+from\s*)?["'](\/[^"']+)["']/g)) {
    add(href, "js");
  }
  for (const [tag] of html.matchAll(/<img\b[^>]*>/gi)) {
    if (!/\sloading\s*=\s*["']?lazy/i.test(tag)) add(attribute(tag, "src"), "other");
  }
  return found;
}

function parseManifest(source) {
  const json = source
    .trim()
    .replace(/^window\.__remixManifest\s*=\s*/, "")
    .replace(/;$/, "");
  return JSON.parse(json);
}

/**
 * Framework or app, from the Remix manifest. Remix's compiler bundles the client entry
 * (entry.client) with everything it imports: react, react-dom, @remix-run/react and the router,
 * split into the chunks listed under `entry.imports`. Whatever a route module and its imports add
 * on top of those (the site's components, copy, hooks and its own libraries such as lucide-react)
 * is app code. So: the manifest file, the entry module and its imports are "framework"; every
 * other script is "app". The few hundred bytes of app/entry.client.tsx sit in the entry module
 * and count as framework, which is where a bare Remix app would have them too.
 */
function classify(manifest) {
  const framework = new Set([manifest.url, manifest.entry.module, ...manifest.entry.imports]);
  return (href) => (framework.has(href) ? "framework" : "app");
}

/** What each output file is made of, by package, from the browser build's esbuild metafile. */
function loadComposition(root) {
  const path = join(root, "build", "metafile.js.json");
  if (!existsSync(path)) return () => [];
  const { outputs } = JSON.parse(readFileSync(path, "utf8"));
  return (href) => {
    const inputs = outputs[`public${href}`]?.inputs ?? {};
    const byPackage = new Map();
    let total = 0;
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      const inPackage = input.split("node_modules/")[1];
      const name = inPackage
        ? inPackage
            .split("/")
            .slice(0, inPackage.startsWith("@") ? 2 : 1)
            .join("/")
        : input.split("/").slice(0, 2).join("/");
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
      total += bytesInOutput;
    }
    return [...byPackage]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, bytes]) => ({ name, share: total ? bytes / total : 0 }));
  };
}

async function download(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

const gzipped = (href, body) =>
  COMPRESSED.test(href) ? gzipSync(body, { level: LEVEL }).length : body.length;

export async function measureBytes({ baseUrl, root }) {
  const htmlBody = await download(`${baseUrl}/`);
  const html = htmlBody.toString("utf8");
  const assets = assetsOf(html);
  const manifestHref = [...assets.keys()].find((href) => /\/manifest-[^/]+\.js$/.test(href));
  if (!manifestHref) throw new Error("GET / links no Remix manifest (/build/manifest-*.js)");
  const manifest = parseManifest((await download(`${baseUrl}${manifestHref}`)).toString("utf8"));
  const kindOfScript = classify(manifest);
  const composition = loadComposition(root);

  const files = [
    { href: "/", kind: "html", raw: htmlBody.length, gzip: gzipped(".html", htmlBody) },
  ];
  for (const [href, kind] of assets) {
    const body = await download(new URL(href, baseUrl).href);
    const file = { href, kind: kind === "js" ? kindOfScript(href) : kind };
    file.raw = body.length;
    file.gzip = gzipped(href, body);
    if (kind === "js") file.contents = composition(href);
    files.push(file);
  }

  const sum = (kinds) =>
    files.filter((file) => kinds.includes(file.kind)).reduce((total, file) => total + file.gzip, 0);
  const count = (kinds) => files.filter((file) => kinds.includes(file.kind)).length;
  const bytes = {
    gzipLevel: 6,
    html: { gzip: sum(["html"]), raw: htmlBody.length },
    framework: { gzip: sum(["framework"]), files: count(["framework"]) },
    app: { gzip: sum(["app"]), files: count(["app"]) },
    css: { gzip: sum(["css"]), files: count(["css"]) },
    other: { gzip: sum(["other"]), files: count(["other"]) },
    total: { gzip: sum(["html", "framework", "app", "css", "other"]), files: files.length },
    files,
  };
  return { html, bytes };
}
