/**
 * The no-JS view: a page's view counted by the server when the browser runs no script. Each page
 * carries, in <noscript>, a 1×1 image from VIEW_PATH naming the page and the variant it shows, so
 * a visitor without JavaScript starts their GA4 session where they landed
 * (analytics/no-js-view.server.ts). A browser that runs scripts never parses it, and sends its own
 * page_view instead (hooks/use-visit.ts): no view counts twice.
 */
import { VARIANT_PARAM } from "~/shared/cta";

export const VIEW_PATH = "/api/view";
/** The image's parameter for the page's path: the same for every visitor of a kept page. */
export const VIEW_PAGE_PARAM = "p";

/**
 * The image's address for the page at `pathname` (as the browser escapes it), showing `variant`
 * (its exp_variant_string): its slashes left as they are, which a query may hold.
 */
export function viewImageSrc(pathname: string, variant?: string): string {
  const search = new URLSearchParams({ [VIEW_PAGE_PARAM]: pathname });
  if (variant) search.set(VARIANT_PARAM, variant);
  return `${VIEW_PATH}?${search.toString().replace(/%2F/g, "/")}`;
}
