import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
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
import { ShareMenu } from "~/components/ShareMenu";
import { SiteHeader } from "~/components/SiteHeader";
import { StaticPart } from "~/components/StaticPart";
import { Toaster } from "~/components/Toaster";
import { brand } from "~/content/brand";
import { errorFallback } from "~/content/error";
import { useLinkClicks } from "~/hooks/use-link-clicks";
import { useNonce } from "~/hooks/use-nonce";
import { useVisit } from "~/hooks/use-visit";
import { rootData } from "~/pages/root-data.server";
import { describeError } from "~/shared/errors";
import { LOCALE_INFO, localeOfPath } from "~/shared/locale";
import type { RouteHandle } from "~/shared/route-handle";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon-48.png", type: "image/png", sizes: "48x48" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png", sizes: "180x180" },
  { rel: "manifest", href: "/site.webmanifest" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  return json(rootData(request, context));
}

const EMPTY = { __html: "" };

/** What a route asks of the document's head: a no-script refresh, a script (only /thank-you). */
function useRouteHead(ask: "refresh" | "script"): string | null {
  const matches = useMatches();
  for (const match of matches) {
    const handle = match.handle as RouteHandle | undefined;
    const value = handle?.[ask]?.(match.data);
    if (value) return value;
  }
  return null;
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const refresh = useRouteHead("refresh");
  const script = useRouteHead("script");
  const nonce = useNonce();
  const location = useLocation();
  // Without the root's data (its loader failed), the path still says the language.
  const locale = data?.locale ?? localeOfPath(location.pathname);
  const visit = useVisit(locale, data?.fbclidAt, data?.exp);
  useLinkClicks(visit);
  return (
    // The countdown's start script may mark it; React leaves an attribute it did not render.
    <html lang={LOCALE_INFO[locale].lang} dir={LOCALE_INFO[locale].dir} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content={brand.themeColor} />
        <Meta />
        {refresh ? (
          <noscript>
            <meta httpEquiv="refresh" content={refresh} />
          </noscript>
        ) : null}
        {/* Where the document pipeline puts the countdown's start script, before the stylesheet
            so nothing waits on it (document/countdown-start.server.ts); empty on other pages.
            Hydration keeps what the server sent, and the bundle carries none of it. */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: empty; the server's own constant
          dangerouslySetInnerHTML={EMPTY}
        />
        {script ? (
          // A route's own script, built by its handle from its data (routes/thank-you.tsx).
          // biome-ignore lint/security/noDangerouslySetInnerHtml: built by the server from the route's checked data
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />
        ) : null}
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a href="#main" className="skip-link">
          {data?.ui.chrome.skipLink ?? errorFallback.skipLink}
        </a>
        <StaticPart name="icon-sprite" />
        {data?.suggest ? <StaticPart name="language-offer" /> : null}
        <SiteHeader site={data?.site} />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        {/* With the footer, the no-JS view's image (landing/static-parts.server.tsx). */}
        {data ? <StaticPart name="footer" /> : null}
        <Toaster />
        {/* Before Remix's restorer, which may scroll to a stored position. */}
        <StaticPart name="render-before-jumps" />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * What the root hands its pages (useOutletContext): the share menu, which the header has
 * anyway. The landing page's closing call uses this one rather than importing it: a module both
 * the root and a route import is a chunk of its own, one more file on every first visit.
 */
export type RootOutletContext = { ShareMenu: typeof ShareMenu };
const outletContext: RootOutletContext = { ShareMenu };

export default function App() {
  const navigation = useNavigation();
  const location = useLocation();
  // A new page is on its way (not a same-page hash change or a form on this page).
  const changingPage =
    navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  // The skeleton is a static part in every page, shown only while the next one loads.
  return (
    <>
      <StaticPart name="page-skeleton" className={changingPage ? undefined : "hidden"} />
      {changingPage ? null : <Outlet context={outletContext} />}
    </>
  );
}

/** The page again, always on this site: a path of "//evil.example" must not become a link there. */
function sameSitePath({ pathname, search }: { pathname: string; search: string }) {
  return `/${pathname.replace(/^[/\\]+/, "")}${search}`;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const { detail, stack } = describeError(error, process.env.NODE_ENV === "development");
  return <ErrorScreen detail={detail} stack={stack} retryHref={sameSitePath(location)} />;
}

// Only the error screen uses the root's own head; every page builds its own in its loader.
export const meta: MetaFunction<typeof loader> = ({ data }) => {
  // In the page's language; in English only when the root loader itself failed.
  const error = data?.ui.chrome.error ?? errorFallback.error;
  return [
    { title: `${error.heading} · ${data?.ui.brandName ?? brand.name}` },
    { name: "description", content: error.body },
    { name: "robots", content: "noindex, follow" },
  ];
};
