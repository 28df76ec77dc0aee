import { useLocation } from "@remix-run/react";
import { useLocale } from "~/hooks/use-site";
import { campaignFrom } from "~/shared/campaign";

/**
 * What a lead link takes from the page it is on: the URL's campaign (as the server sees it; the
 * click listener corrects it to the visit's), the way back, and the language of /thank-you.
 */
export function useLeadContext() {
  const { pathname, search } = useLocation();
  return {
    campaign: campaignFrom(new URLSearchParams(search)),
    returnUrl: pathname,
    locale: useLocale(),
  };
}
