import type { MetaFunction } from "@remix-run/node";
import { SitemapPage } from "~/components/SitemapPage";
import { heads } from "~/content/heads";
import { headContext, pageMeta } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  pageMeta({ ...heads.sitemap, path: "/sitemap" }, headContext(matches));

export default function Sitemap() {
  return <SitemapPage />;
}
