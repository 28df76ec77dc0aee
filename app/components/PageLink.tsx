import { Link, type LinkProps } from "@remix-run/react";
import { PAGE_LINK } from "~/analytics/link-clicks";

/**
 * A link to one of the site's pages. Hydrated, it is a router link; inside a static part the
 * document's click listener (hooks/use-link-clicks.ts) routes it the same way.
 */
export function PageLink(props: LinkProps & Record<string, unknown>) {
  return <Link {...props} {...{ [PAGE_LINK]: "" }} />;
}
