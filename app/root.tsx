import type { LinksFunction } from "@remix-run/node";
import {
  json,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorScreen } from "~/components/ErrorScreen";
import { PageSkeleton } from "~/components/PageSkeleton";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { brand } from "~/content/brand";
import { chrome } from "~/content/chrome";
import { AttributionContext, useVisitAttribution } from "~/hooks/use-attribution";
import { usePageViews } from "~/hooks/use-page-views";
import { getConfig } from "~/lib/config.server";
import { describeError } from "~/lib/errors";
import { pageMeta } from "~/lib/seo";
import { siteSettings } from "~/lib/site.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader() {
  return json({ site: siteSettings(getConfig()) });
}

/** Routes that must only be left by a full page load (a pending meta refresh) say so here. */
function useDocumentLinks(): boolean {
  return useMatches().some((match) => {
    const handle = match.handle as { documentLinks?: boolean } | undefined;
    return handle?.documentLinks === true;
  });
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const { attribution, ready } = useVisitAttribution();
  const documentLinks = useDocumentLinks();
  usePageViews(attribution, ready);
  return (
    <html lang="en" dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={brand.themeColor} />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-lg bg-ink-900 px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          {chrome.skipLink}
        </a>
        <AttributionContext.Provider value={attribution}>
          <SiteHeader siteUrl={data?.site.siteUrl} documentLinks={documentLinks} />
          <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
            {children}
          </main>
          {data ? <SiteFooter site={data.site} documentLinks={documentLinks} /> : null}
        </AttributionContext.Provider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const navigation = useNavigation();
  const location = useLocation();
  // A new page is on its way (not a same-page hash change or a form on this page).
  const changingPage =
    navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  return changingPage ? <PageSkeleton /> : <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const { detail, stack } = describeError(error, process.env.NODE_ENV === "development");
  return (
    <ErrorScreen detail={detail} stack={stack} retryHref={location.pathname + location.search} />
  );
}

export const meta = () =>
  pageMeta({ title: chrome.error.heading, description: chrome.error.body, noindex: true });
