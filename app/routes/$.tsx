import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotFound } from "~/components/NotFound";
import { copyFor } from "~/content/copy.server";
import { headFor } from "~/lib/head.server";
import { localeOfPath } from "~/lib/locale";
import { metaFromLoader } from "~/lib/route-meta";

// Every path no other route claims lands here, inside the site's frame, with a real 404.
export async function loader({ request }: LoaderFunctionArgs) {
  return json(
    {
      head: headFor(request, "notFound"),
      copy: copyFor(localeOfPath(new URL(request.url).pathname)).chrome.notFound,
    },
    { status: 404, headers: { "Cache-Control": "no-store" } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta = metaFromLoader;

export default function NotFoundRoute() {
  return <NotFound copy={useLoaderData<typeof loader>().copy} />;
}
