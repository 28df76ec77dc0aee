import type { MetaFunction } from "@remix-run/node";
import { SharePage } from "~/components/SharePage";
import { heads } from "~/content/heads";
import { headContext, pageMeta } from "~/lib/seo";

// ?platform= (or the crawler asking) picks both the preview tags here and the message on the page.
export const meta: MetaFunction = ({ matches }) =>
  pageMeta({ ...heads.share, path: "/share" }, headContext(matches));

export default function Share() {
  return <SharePage />;
}
