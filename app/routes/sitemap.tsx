import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SitemapPage } from "~/components/SitemapPage";
import { copyFor } from "~/content/copy.server";
import { headFor } from "~/pages/head.server";
import { localeOfPath } from "~/shared/locale";
import { metaFromLoader } from "~/shared/route-meta";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = localeOfPath(new URL(request.url).pathname);
  return json({
    head: headFor(request, context, "sitemap"),
    copy: copyFor(locale).pages.sitemap,
  });
}

export const meta = metaFromLoader;

export default function Sitemap() {
  return <SitemapPage copy={useLoaderData<typeof loader>().copy} />;
}
