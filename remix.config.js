/** The Arabic pages are the English route modules again, under /ar (lib/locale.ts). */
const ARABIC = [
  ["ar", "routes/_index.tsx"],
  ["ar/share", "routes/share.tsx"],
  ["ar/sitemap", "routes/sitemap.tsx"],
  ["ar/privacy", "routes/privacy.tsx"],
  ["ar/terms", "routes/terms.tsx"],
  ["ar/thank-you", "routes/thank-you.tsx"],
];

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Tests live beside the code; without this they would become routes.
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  // remix-utils ships ESM only.
  serverDependenciesToBundle: [/^remix-utils.*/, /^lucide-react/],
  routes: (defineRoutes) =>
    defineRoutes((route) => {
      for (const [path, file] of ARABIC) route(path, file, { id: path });
    }),
  // Pinned, and held by app/document/remix-contract.test.tsx (docs/decisions/014-remix-internals.md).
  // The three `true` are React Router 7's behaviour, taken early; nothing here leans on the old one:
  // fetcherPersist (no fetchers), relativeSplatPath (the 404 splat route, $.tsx, links absolute
  // paths), throwAbortReason (entry.server.tsx's handleError asks request.signal, not the error).
  // The two `false` are what the document relies on:
  // - lazyRouteDiscovery: it inlines a manifest in <Scripts>' module script, which the boot-script
  //   rewrite (document/boot-script.server.ts) does not know, so pages would start before paint.
  // - singleFetch: the handoff rewrite (document/handoff.server.ts) needs state.loaderData in
  //   serverHandoffString; `_data` data requests are what server/document-cache.ts, handleDataRequest
  //   and the log lines expect; server/main.ts picks Remix's fetch polyfill from it.
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: false,
  },
};
