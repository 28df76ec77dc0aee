import type {
  Graph,
  MobileApplication,
  Offer,
  Organization,
  Service,
  WebPage,
  WebSite,
} from "schema-dts";
import { brand as arBrand } from "~/content/ar/brand";
import { plans as arPlans } from "~/content/ar/plans";
import { brand as enBrand } from "~/content/brand";
import { landing } from "~/content/landing";
import type { Localized } from "~/content/localized";
import { plans as enPlans } from "~/content/plans";
import { PERIOD_CODES } from "~/leads/plans";
import { absoluteUrl, fullTitle, HEAD_COPY } from "~/pages/seo";
import { LOCALE_INFO, LOCALES, type Locale, localePath } from "~/shared/locale";

export type OrganizationContact = {
  siteUrl: string;
  email: string;
  phone: string;
  /** The company behind the site (COMPANY_* settings): only what is set. */
  company?: { name?: string; licence?: string; address?: string };
};

/** What a page's JSON-LD is made from: the site's contact details and the page's language. */
export type StructuredDataContext = OrganizationContact & { locale: Locale };

/**
 * The copy the graph names things with, per language. Two phrases have no home in content/ yet:
 * the Service's type and the city it serves.
 */
const COPY: Record<
  Locale,
  {
    brand: Localized<typeof enBrand>;
    plans: Localized<typeof enPlans>;
    serviceType: string;
    city: string;
  }
> = {
  en: { brand: enBrand, plans: enPlans, serviceType: "Driving coaching", city: "Dubai" },
  ar: { brand: arBrand, plans: arPlans, serviceType: "تدريب القيادة", city: "دبي" },
};

/**
 * The landing page's JSON-LD (docs/product.md), in the page's language: one @graph of the WebSite and
 * the WebPage in that language, the Organization and its three plans, the coaching Service it
 * provides, and the MobileApplication with what Google's rich results for SoftwareApplication
 * require (name, offers.price with priceCurrency, aggregateRating).
 *
 * The Organization, Service and app are the same things in every language, so their @id is
 * the same on /ar as on /; the WebSite and WebPage are one per language, each with inLanguage.
 */
export function landingGraph(site: StructuredDataContext): Graph {
  const { locale, company } = site;
  const { brand, plans, serviceType, city } = COPY[locale];
  const { heads } = HEAD_COPY[locale];
  const inLanguage = LOCALE_INFO[locale].lang;
  const root = absoluteUrl(site.siteUrl, "/");
  const home = absoluteUrl(site.siteUrl, localePath(locale, "/"));
  const ids = {
    organization: `${root}#organization`,
    service: `${root}#coaching`,
    app: `${root}#app`,
    website: `${home}#website`,
    webpage: `${home}#webpage`,
  };
  // The brand in the other languages, so a reader of one finds the name printed in another.
  const otherNames = LOCALES.filter((other) => other !== locale).map(
    (other) => COPY[other].brand.name,
  );
  const description = heads.home.description.default;

  // A paid plan's price is for a period, as the page shows it: "AED 149 / year".
  const period = PERIOD_CODES[plans.period];
  const planOffers: Offer[] = plans.items.map((plan) => ({
    "@type": "Offer",
    name: `${brand.name} ${plan.name}`,
    description: plan.summary,
    price: plan.price.toFixed(2),
    priceCurrency: plans.currency,
    ...(plan.price > 0
      ? {
          priceSpecification: {
            "@type": "UnitPriceSpecification",
            price: plan.price.toFixed(2),
            priceCurrency: plans.currency,
            billingDuration: period.duration,
            referenceQuantity: {
              "@type": "QuantitativeValue",
              value: 1,
              unitCode: period.unitCode,
            },
            unitCode: period.unitCode,
            unitText: plans.periodUnit[plans.period],
          },
        }
      : {}),
    itemOffered: { "@id": ids.app },
    url: `${home}#plans`,
  }));

  const website: WebSite = {
    "@type": "WebSite",
    "@id": ids.website,
    name: brand.name,
    alternateName: otherNames,
    url: home,
    inLanguage,
    publisher: { "@id": ids.organization },
  };

  const webpage: WebPage = {
    "@type": "WebPage",
    "@id": ids.webpage,
    name: fullTitle(heads.home.title, locale),
    description,
    url: home,
    inLanguage,
    isPartOf: { "@id": ids.website },
    about: { "@id": ids.organization },
    mainEntity: { "@id": ids.app },
  };

  const organization: Organization = {
    "@type": "Organization",
    "@id": ids.organization,
    name: brand.name,
    alternateName: otherNames,
    url: home,
    logo: absoluteUrl(site.siteUrl, "/icon-512.png"),
    email: site.email,
    telephone: site.phone,
    address: {
      "@type": "PostalAddress",
      // The registered address as the operator wrote it, on one line.
      ...(company?.address ? { streetAddress: company.address } : {}),
      addressLocality: "Dubai",
      addressCountry: "AE",
    },
    ...(company?.name ? { legalName: company.name } : {}),
    ...(company?.licence
      ? {
          identifier: {
            "@type": "PropertyValue",
            propertyID: "UAE trade licence number",
            value: company.licence,
          },
        }
      : {}),
    makesOffer: planOffers,
  };

  // schema.org gives a Service no inLanguage; the page and the app it is delivered by carry it.
  const service: Service = {
    "@type": "Service",
    "@id": ids.service,
    name: brand.tagline,
    serviceType,
    description,
    areaServed: { "@type": "City", name: city },
    provider: { "@id": ids.organization },
  };

  const { value, count } = landing.hero.rating;
  const app: MobileApplication = {
    "@type": "MobileApplication",
    "@id": ids.app,
    name: brand.name,
    alternateName: otherNames,
    description,
    url: home,
    inLanguage,
    applicationCategory: "NavigationApplication",
    operatingSystem: "iOS, Android",
    image: absoluteUrl(site.siteUrl, "/og-image.png"),
    offers: { "@type": "Offer", price: "0", priceCurrency: "AED" },
    aggregateRating: {
      "@type": "AggregateRating",
      ratingValue: value,
      ratingCount: count,
      bestRating: 5,
      worstRating: 1,
    },
    publisher: { "@id": ids.organization },
  };

  return {
    "@context": "https://schema.org",
    "@graph": [website, webpage, organization, service, app],
  };
}

/**
 * The JSON-LD as a script element's text. `<` is written as \u003c (still the same JSON), so no
 * value, not even "</script>", can end the element or open a comment.
 */
export function jsonLdText(data: Graph): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
