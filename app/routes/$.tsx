import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";
import { headFor } from "~/lib/head.server";
import { metaFromLoader } from "~/lib/route-meta";

// Every path no other route claims lands here, inside the site's frame, with a real 404.
export async function loader({ request }: LoaderFunctionArgs) {
  return json(
    { head: headFor(request, "notFound") },
    { status: 404, headers: { "Cache-Control": "no-store" } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta = metaFromLoader;

export default function NotFoundRoute() {
  return <NotFound />;
}
