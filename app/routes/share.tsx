import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { heads as arHeads } from "~/content/ar/heads";
import { copyFor } from "~/content/copy.server";
import { heads } from "~/content/heads";
import { headFor, platformOf } from "~/pages/head.server";
import { SharePage } from "~/share/SharePage";
import { localeOfPath } from "~/shared/locale";
import { wordingFor } from "~/shared/platform";
import { metaFromLoader } from "~/shared/route-meta";
import { fullTitle } from "~/shared/seo";

// ?platform= (or the crawler asking) picks both the preview tags here and the message on the page.
export async function loader({ request }: LoaderFunctionArgs) {
  const head = headFor(request, "share");
  // The preview shows how the home page, the link being shared, looks in this platform's words.
  const locale = localeOfPath(new URL(request.url).pathname);
  const home = (locale === "ar" ? arHeads : heads).home;
  const description = wordingFor(home.description, platformOf(request));
  const copy = copyFor(locale);
  return json({
    head,
    preview: { title: fullTitle(home.title, locale), description },
    copy: { page: copy.sharePage, messages: copy.shareMessages },
  });
}

export const meta = metaFromLoader;

export default function Share() {
  const { preview, copy } = useLoaderData<typeof loader>();
  return <SharePage preview={preview} copy={copy} />;
}
