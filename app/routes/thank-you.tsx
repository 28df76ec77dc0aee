import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ThankYouPage } from "~/components/ThankYouPage";
import { REDIRECT_DELAY_SECONDS } from "~/content/conversion";
import { copyFor } from "~/content/copy.server";
import { leadCampaign } from "~/leads/attribution-cookies.server";
import { withChatRef } from "~/leads/chat-ref";
import { recordLead } from "~/leads/leads.server";
import { planMessages } from "~/leads/plans";
import { isVisitorsNavigation } from "~/leads/visitor.server";
import { headFor } from "~/pages/head.server";
import { defaultTarget, readThankYou } from "~/pages/thank-you.server";
import { requestContext } from "~/platform/request-context.server";
import { earlyHandOffScript } from "~/shared/early-hand-off";
import { localeOfPath, localePath } from "~/shared/locale";
import type { RouteHandle } from "~/shared/route-handle";
import { metaFromLoader } from "~/shared/route-meta";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { config } = requestContext(context);
  const locale = localeOfPath(url.pathname);
  const copy = copyFor(locale);
  const targets = {
    whatsappNumber: config.whatsappNumber,
    email: config.contactEmail,
    demoUrl: config.demoUrl,
    ...copy.contact,
    planMessages: planMessages(copy.plans),
  };
  const { campaign, sessionId, fbclidAt, variant, placement, ...result } = readThankYou(
    url.searchParams,
    targets,
  );
  // The title names the step that is left, like the page's heading.
  const head = headFor(
    request,
    context,
    "thankYou",
    result.cta ? { title: copy.thankYou.heading[result.cta] } : undefined,
  );
  let leadId: string | null = null;
  // The page moves on by itself unless the server knows this lead already (docs/decisions/019).
  let handOff = true;
  // Counted on the server, so that a lead counts with JavaScript off: when it is a visitor's,
  // and never for a data request, whatever its headers say.
  if (result.cta && isVisitorsNavigation(request) && !requestContext(context).dataRequest) {
    // A link without a campaign (the visitor came back another day) takes the one kept.
    const kept = requestContext(context).attribution;
    const credited = leadCampaign({ campaign, fbclidAt }, kept?.kept ?? null);
    const lead = await recordLead(requestContext(context), request, {
      cta: result.cta,
      campaign: credited.campaign,
      plan: result.plan,
      language: locale,
      sessionId,
      fbclidAt: credited.fbclidAt,
      ...(kept?.fbp ? { fbp: kept.fbp } : {}),
      variant,
      placement,
      fromPath: result.returnUrl === "/" ? localePath(locale, "/") : result.returnUrl,
      // This page's own view is counted here, and the browser sends none (hooks/use-visit.ts):
      // it may hand off a second after the tap, before its script has run.
      pageView: {
        location: `${new URL(config.siteUrl).origin}${url.pathname}${url.search}`,
        referrer: request.headers.get("referer") ?? undefined,
        title: titleOf(head),
      },
    });
    leadId = lead.id ?? null;
    // Within 30 minutes the same visitor's same lead is back: a reload, Back in a browser that
    // kept the page, or a second tap because no app opened. A redirect would bounce the first
    // two and fail the third as it failed before; the page's button is one tap instead.
    handOff = lead.verdict !== "repeat";
    // The chat the link opens quotes the lead's reference, which ties it to its campaign.
    if (lead.ref && result.target) {
      result.target = withChatRef(result.target, lead.ref, copy.contact.chatRef);
    }
  }
  // No mail app is no dead end: the address to write to by hand, and WhatsApp instead.
  const email =
    result.cta === "email"
      ? { address: config.contactEmail, whatsapp: defaultTarget("whatsapp", targets) ?? "" }
      : null;
  return json(
    {
      ...result,
      // No way back given: the home page in this page's language.
      returnUrl: result.returnUrl === "/" ? localePath(locale, "/") : result.returnUrl,
      head,
      email,
      // The counted lead's id: a Meta pixel added to this page can use it as its eventID.
      leadId,
      handOff,
      copy: copy.thankYou,
    },
    {
      headers: {
        "Cache-Control": "no-store",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "X-Robots-Tag": "noindex",
      },
    },
  );
}

function titleOf(head: ReturnType<typeof headFor>): string | undefined {
  for (const descriptor of head) if ("title" in descriptor) return String(descriptor.title);
  return undefined;
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta = metaFromLoader;

/** The page's data as the handle reads it; none when the route answers with an error. */
type HandOffData =
  | { cta?: string | null; target?: string | null; handOff?: boolean }
  | null
  | undefined;

/**
 * Without JavaScript the redirect is a <meta http-equiv="refresh">, which the root puts in the
 * head inside <noscript>. Its timer starts once the page has loaded, which on a phone is most of
 * the second the hand-off may take, so it waits no more: 0 s, an instant redirect, which also
 * replaces the page in history (Back never lands on it) and sets no time limit (WCAG 2.2.1).
 * With JavaScript a script in the head opens the target a second after the tap, however late
 * the page hydrates, and the page's hook lets the visitor stop it. Not for a mailto: starting a
 * navigation stops the page's downloads, and one that opens nothing before hydration would leave
 * the e-mail page without its copy button; the hook opens that one.
 * Why: docs/decisions/019-a-one-second-hand-off.md.
 */
export const handle: RouteHandle = {
  // A POST here is a 405, with no data: no refresh, no script.
  refresh: (data) => {
    const page = data as HandOffData;
    return page?.target && page.handOff !== false ? `0; url=${page.target}` : null;
  },
  // A lead link's page: its view is counted with the lead, JavaScript or not.
  countsView: (data) => Boolean((data as HandOffData)?.cta),
  script: (data) => {
    const page = data as HandOffData;
    return page?.target && page.handOff !== false && /^https:/.test(page.target)
      ? earlyHandOffScript(page.target, REDIRECT_DELAY_SECONDS * 1000)
      : null;
  },
};

export default function ThankYouRoute() {
  const data = useLoaderData<typeof loader>();
  return <ThankYouPage {...data} />;
}
