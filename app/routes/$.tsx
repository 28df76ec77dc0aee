import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotFound } from "~/components/NotFound";
import { copyFor } from "~/content/copy.server";
import { headFor } from "~/pages/head.server";
import { notFoundLinks } from "~/pages/not-found.server";
import { localeOfPath } from "~/shared/locale";
import { metaFromLoader } from "~/shared/route-meta";

// Every path no other route claims lands here, inside the site's frame, with a real 404, and
// still offers the lead and the landing page with the visit's campaign (pages/not-found.server.ts).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const locale = localeOfPath(url.pathname);
  const copy = copyFor(locale);
  return json(
    {
      head: headFor(request, context, "notFound"),
      copy: copy.chrome.notFound,
      links: notFoundLinks(request, context, copy),
    },
    { status: 404, headers: { "Cache-Control": "no-store" } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta = metaFromLoader;

export default function NotFoundRoute() {
  const { copy, links } = useLoaderData<typeof loader>();
  return <NotFound copy={copy} links={links} />;
}
