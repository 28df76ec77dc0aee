import type { MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";
import { heads } from "~/content/heads";
import { headContext, pageMeta } from "~/lib/seo";

// Every path no other route claims lands here, inside the site's frame, with a real 404.
export async function loader() {
  return json(null, { status: 404, headers: { "Cache-Control": "no-store" } });
}

export const meta: MetaFunction = ({ matches, location }) =>
  pageMeta({ ...heads.notFound, path: location.pathname, noindex: true }, headContext(matches));

export default function NotFoundRoute() {
  return <NotFound />;
}
