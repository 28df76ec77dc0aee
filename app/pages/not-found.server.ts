import type { AppLoadContext } from "@remix-run/node";
import type { Copy } from "~/content/copy.server";
import { variantOf } from "~/pages/page-variant.server";
import { requestContext } from "~/platform/request-context.server";
import { campaignQuery } from "~/shared/campaign";
import { contactHref, resolveCta } from "~/shared/cta";
import { localePath } from "~/shared/locale";

const PLACEMENT = "not-found";

/**
 * Where the 404 page leads a visitor whose campaign link was mistyped: the WhatsApp lead (through
 * /thank-you, reported like every lead link) and the landing page, both with the campaign read
 * from the URL, cleaned and re-encoded, never echoed raw. Made on the server, so the links work without
 * JavaScript, and in a .server module: the route's browser code must reach no module the landing
 * page's does not share with it already, or the compiler splits `/`'s chunks further and the
 * landing page loads more.
 */
export function notFoundLinks(
  request: Request,
  loadContext: AppLoadContext | undefined,
  copy: Pick<Copy, "contact"> & { chrome: Pick<Copy["chrome"], "notFound"> },
) {
  const { config } = requestContext(loadContext);
  const { locale, campaign } = variantOf(request);
  const { pathname } = new URL(request.url);
  const site = {
    whatsappNumber: config.whatsappNumber,
    email: config.contactEmail,
    demoUrl: config.demoUrl,
  };
  const lead = resolveCta(
    {
      text: copy.chrome.notFound.whatsapp,
      href: contactHref("whatsapp", site, copy.contact),
      ctaType: "whatsapp",
    },
    { campaign, returnUrl: pathname, placement: PLACEMENT, locale },
  );
  return {
    // Its address says its event and placement, which the click reads off it
    // (analytics/link-clicks.ts, linkEvent).
    lead: { href: lead.href },
    home: `${localePath(locale, "/")}${campaignQuery(campaign)}`,
  };
}

export type NotFoundLinks = ReturnType<typeof notFoundLinks>;
