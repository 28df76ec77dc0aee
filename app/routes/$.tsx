import type { MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";
import { chrome } from "~/content/chrome";
import { pages } from "~/content/pages";
import { pageMeta } from "~/lib/seo";

// Every path no other route claims lands here, inside the site's frame, with a real 404.
export async function loader() {
  return json(null, { status: 404, headers: { "Cache-Control": "no-store" } });
}

export const meta: MetaFunction = () =>
  pageMeta({
    title: chrome.notFound.title,
    description: pages.notFound.description,
    noindex: true,
  });

export default function NotFoundRoute() {
  return <NotFound />;
}
