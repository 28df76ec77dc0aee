import { formatClosing, formatPrice } from "~/content/format";
import { heads } from "~/content/heads";
import {
  blocksOf,
  companyBlocks,
  emailLink,
  type LegalContext,
  type LegalDocument,
  rich,
  updatedLine,
} from "~/pages/legal-text.server";
import { siteSettings } from "~/pages/site-settings.server";
import { LOCALE_INFO } from "~/shared/locale";

/**
 * The terms of the site and the beta offer: the site's own claims (the beta, the plans, what
 * "up to 25%" depends on) in plain words, with prices from the plans' copy and the company,
 * contact details and beta's end from the settings. Nothing here is the company's to fill in
 * but what the settings say (docs/decisions/017-what-the-site-says-about-itself.md).
 */
export function termsOf({ copy, locale, config }: LegalContext): LegalDocument {
  const words = copy.legal.terms;
  const intl = LOCALE_INFO[locale].intl;
  const { plans } = copy;
  const price = (id: string) => {
    const plan = plans.items.find((item) => item.id === id);
    if (!plan) throw new Error(`no plan ${id}`);
    return formatPrice(plan.price, plans.currency, intl);
  };
  const site = siteSettings(config);
  // The first paragraph says when the link comes: copyFor chose it from the settings.
  const beta = blocksOf([words.beta.ask, ...words.beta.body]);
  if (config.betaClosesAt) {
    beta.push({
      paragraph: rich(words.beta.closes, { date: formatClosing(config.betaClosesAt, intl) }),
    });
  }
  return {
    heading: words.heading,
    intro: words.intro,
    updated: updatedLine(copy, locale, heads.terms.dateModified),
    sections: [
      {
        id: "who",
        heading: words.who.heading,
        blocks: [
          ...companyBlocks(copy, config.company),
          {
            paragraph: rich(words.who.contact, {
              email: emailLink(site.email),
              phone: { href: site.phoneHref, text: site.phone, ltr: true },
              place: copy.footer.address,
            }),
          },
        ],
      },
      { id: "site", heading: words.site.heading, blocks: blocksOf(words.site.body) },
      { id: "beta", heading: words.beta.heading, blocks: beta },
      {
        // Not "plans": the landing page's section has that id.
        id: "prices",
        heading: words.plans.heading,
        blocks: blocksOf(words.plans.body, {
          plus: price("plus"),
          pro: price("pro"),
          period: plans.periodLabel[plans.period],
        }),
      },
      { id: "cashback", heading: words.cashback.heading, blocks: blocksOf(words.cashback.body) },
      { id: "driving", heading: words.driving.heading, blocks: blocksOf(words.driving.body) },
      {
        id: "privacy",
        heading: words.privacy.heading,
        blocks: blocksOf(words.privacy.body, {
          privacy: { page: "/privacy", text: words.privacy.link },
        }),
      },
    ],
  };
}
