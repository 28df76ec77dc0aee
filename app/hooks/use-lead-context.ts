import { useLocation, useRouteLoaderData } from "@remix-run/react";
import { useLocale } from "~/hooks/use-site";
import { campaignFrom } from "~/shared/campaign";

/**
 * What a lead link takes from the page it is on: the URL's campaign (as the server sees it; the
 * click listener corrects it to the visit's), when its fbclid was first seen (the root's data:
 * only for a URL with one, never kept for other visitors), the experiment's variant the page
 * shows (the root's data: a kept page is kept per variant), the way back, and the language of
 * /thank-you.
 */
export function useLeadContext() {
  const { pathname, search } = useLocation();
  const root = useRouteLoaderData<{ fbclidAt?: number; exp?: string }>("root");
  return {
    campaign: campaignFrom(new URLSearchParams(search)),
    fbclidAt: root?.fbclidAt,
    variant: root?.exp,
    returnUrl: pathname,
    locale: useLocale(),
  };
}
