import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { SitemapPage } from "~/components/SitemapPage";
import { headFor } from "~/lib/head.server";
import { metaFromLoader } from "~/lib/route-meta";

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ head: headFor(request, "sitemap") });
}

export const meta = metaFromLoader;

export default function Sitemap() {
  return <SitemapPage />;
}
