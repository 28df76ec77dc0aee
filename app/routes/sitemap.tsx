import type { MetaFunction } from "@remix-run/node";
import { SitemapPage } from "~/components/SitemapPage";
import { pages } from "~/content/pages";
import { pageMeta } from "~/lib/seo";

export const meta: MetaFunction = () => pageMeta(pages.sitemap);

export default function Sitemap() {
  return <SitemapPage />;
}
