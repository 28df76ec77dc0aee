import type { Graph, MobileApplication, Offer, Organization, Service } from "schema-dts";
import { brand } from "~/content/brand";
import { heads } from "~/content/heads";
import { landing } from "~/content/landing";
import { plans } from "~/content/plans";
import { absoluteUrl } from "~/lib/seo";

export type OrganizationContact = { siteUrl: string; email: string; phone: string };

/**
 * The landing page's JSON-LD (spec §3): one @graph of the Organization and its three plans, the
 * coaching Service it provides, and the MobileApplication with what Google's rich results for
 * SoftwareApplication require (name, offers.price with priceCurrency, aggregateRating).
 */
export function landingGraph(site: OrganizationContact, inLanguage = brand.locale): Graph {
  const home = absoluteUrl(site.siteUrl, "/");
  const ids = {
    organization: `${home}#organization`,
    service: `${home}#coaching`,
    app: `${home}#app`,
  };
  const planOffers: Offer[] = plans.items.map((plan) => ({
    "@type": "Offer",
    name: `${brand.name} ${plan.name}`,
    description: plan.summary,
    price: plan.price.toFixed(2),
    priceCurrency: plans.currency,
    itemOffered: { "@id": ids.app },
    url: `${home}#plans`,
  }));

  const organization: Organization = {
    "@type": "Organization",
    "@id": ids.organization,
    name: brand.name,
    url: home,
    logo: absoluteUrl(site.siteUrl, "/icon-512.png"),
    email: site.email,
    telephone: site.phone,
    address: { "@type": "PostalAddress", addressLocality: "Dubai", addressCountry: "AE" },
    makesOffer: planOffers,
  };

  const service: Service = {
    "@type": "Service",
    "@id": ids.service,
    name: `${brand.name} driving coaching`,
    serviceType: "Driving coaching",
    description: heads.home.description.default,
    areaServed: { "@type": "City", name: "Dubai" },
    provider: { "@id": ids.organization },
  };

  const { value, count } = landing.hero.rating;
  const app: MobileApplication = {
    "@type": "MobileApplication",
    "@id": ids.app,
    name: brand.name,
    description: heads.home.description.default,
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

  return { "@context": "https://schema.org", "@graph": [organization, service, app] };
}
