import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SharePage } from "~/components/SharePage";
import { heads as arHeads } from "~/content/ar/heads";
import { copyFor } from "~/content/copy.server";
import { heads } from "~/content/heads";
import { headFor } from "~/pages/head.server";
import { variantOf } from "~/pages/page-variant.server";
import { fullTitle } from "~/pages/seo";
import { wordingFor } from "~/shared/platform";
import { metaFromLoader } from "~/shared/route-meta";

// ?platform= (or the crawler asking) picks both the preview tags here and the message on the page.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const head = headFor(request, context, "share");
  // The preview shows how the home page, the link being shared, looks in this platform's words.
  const { locale, platform } = variantOf(request);
  const home = (locale === "ar" ? arHeads : heads).home;
  const description = wordingFor(home.description, platform);
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
