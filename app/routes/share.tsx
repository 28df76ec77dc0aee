import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SharePage } from "~/components/SharePage";
import { heads } from "~/content/heads";
import { headFor, platformOf } from "~/lib/head.server";
import { wordingFor } from "~/lib/platform";
import { metaFromLoader } from "~/lib/route-meta";
import { fullTitle } from "~/lib/seo";

// ?platform= (or the crawler asking) picks both the preview tags here and the message on the page.
export async function loader({ request }: LoaderFunctionArgs) {
  const head = headFor(request, "share");
  // The preview shows how the home page, the link being shared, looks in this platform's words.
  const description = wordingFor(heads.home.description, platformOf(request));
  return json({ head, preview: { title: fullTitle(heads.home.title), description } });
}

export const meta = metaFromLoader;

export default function Share() {
  const { preview } = useLoaderData<typeof loader>();
  return <SharePage preview={preview} />;
}
