/** The Arabic pages are the English route modules again, under /ar (lib/locale.ts). */
const ARABIC = [
  ["ar", "routes/_index.tsx"],
  ["ar/share", "routes/share.tsx"],
  ["ar/sitemap", "routes/sitemap.tsx"],
  ["ar/thank-you", "routes/thank-you.tsx"],
];

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Tests live beside the code; without this they would become routes.
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  // remix-utils ships ESM only.
  serverDependenciesToBundle: [/^remix-utils.*/],
  routes: (defineRoutes) =>
    defineRoutes((route) => {
      for (const [path, file] of ARABIC) route(path, file, { id: path });
    }),
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: false,
  },
};
