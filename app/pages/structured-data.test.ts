import { describe, expect, it } from "vitest";
import { heads as arHeads } from "~/content/ar/heads";
import { plans as arPlans } from "~/content/ar/plans";
import { heads } from "~/content/heads";
import { landingGraph } from "~/pages/structured-data";
import type { Locale } from "~/shared/locale";

const SITE = {
  siteUrl: "https://darb.example",
  email: "hello@darb.example",
  phone: "+971 4 555 0134",
};

// biome-ignore lint/suspicious/noExplicitAny: JSON-LD is read back as plain JSON, as a crawler does.
function nodesIn(locale: Locale): any[] {
  return JSON.parse(JSON.stringify(landingGraph({ ...SITE, locale })))["@graph"];
}
const nodes = nodesIn("en");
const arNodes = nodesIn("ar");
// biome-ignore lint/suspicious/noExplicitAny: as above.
const byType = (type: string, from: any[] = nodes) => from.find((node) => node["@type"] === type);

describe("the landing page's structured data", () => {
  it("is one graph of the WebSite, the WebPage, an Organization, a Service and a MobileApplication", () => {
    expect(landingGraph({ ...SITE, locale: "en" })["@context"]).toBe("https://schema.org");
    expect(nodes.map((node) => node["@type"])).toEqual([
      "WebSite",
      "WebPage",
      "Organization",
      "Service",
      "MobileApplication",
    ]);
  });

  it("describes the Organization in Dubai with its contact and its three plans", () => {
    const organization = byType("Organization");
    expect(organization).toMatchObject({
      name: "Darb",
      url: "https://darb.example/",
      logo: "https://darb.example/icon-512.png",
      email: "hello@darb.example",
      telephone: "+971 4 555 0134",
      address: { addressLocality: "Dubai", addressCountry: "AE" },
    });
    expect(
      organization.makesOffer.map((offer: { price: string; priceCurrency: string }) => [
        Number(offer.price),
        offer.priceCurrency,
      ]),
    ).toEqual([
      [0, "AED"],
      [149, "AED"],
      [299, "AED"],
    ]);
  });

  it("names the company behind it only from its settings: legal name, licence, address", () => {
    const organization = byType("Organization");
    expect(organization.legalName).toBeUndefined();
    expect(organization.identifier).toBeUndefined();
    expect(organization.address.streetAddress).toBeUndefined();
    const company = {
      name: "Darb Technologies FZ-LLC",
      licence: "DMCC-123456",
      address: "Unit 1, JLT",
    };
    const withCompany = JSON.parse(
      JSON.stringify(landingGraph({ ...SITE, company, locale: "ar" })),
    )["@graph"];
    expect(byType("Organization", withCompany)).toMatchObject({
      name: "درب",
      legalName: "Darb Technologies FZ-LLC",
      identifier: { "@type": "PropertyValue", value: "DMCC-123456" },
      address: { streetAddress: "Unit 1, JLT", addressLocality: "Dubai", addressCountry: "AE" },
    });
    // Only what is set: a licence alone adds the identifier and nothing else.
    const licenceOnly = JSON.parse(
      JSON.stringify(landingGraph({ ...SITE, company: { licence: "42" }, locale: "en" })),
    )["@graph"];
    expect(byType("Organization", licenceOnly).legalName).toBeUndefined();
    expect(byType("Organization", licenceOnly).identifier.value).toBe("42");
  });

  it("gives each paid plan its yearly period, as the page shows it, in both languages", () => {
    for (const [from, unitText] of [
      [nodes, "year"],
      [arNodes, "سنة"],
    ] as const) {
      const [free, plus, pro] = byType("Organization", from).makesOffer;
      expect(free.priceSpecification).toBeUndefined();
      for (const [offer, price] of [
        [plus, "149.00"],
        [pro, "299.00"],
      ]) {
        expect(offer.price).toBe(price);
        expect(offer.priceSpecification).toEqual({
          "@type": "UnitPriceSpecification",
          price,
          priceCurrency: "AED",
          billingDuration: "P1Y",
          referenceQuantity: { "@type": "QuantitativeValue", value: 1, unitCode: "ANN" },
          unitCode: "ANN",
          unitText,
        });
      }
    }
  });

  it("has the Service provided by the Organization", () => {
    expect(byType("Service").provider).toEqual({ "@id": byType("Organization")["@id"] });
    expect(byType("Service").areaServed.name).toBe("Dubai");
  });

  it("gives the app what Google's SoftwareApplication rich result requires", () => {
    const app = byType("MobileApplication");
    expect(app.name).toBe("Darb");
    expect(app.applicationCategory).toBe("NavigationApplication");
    expect(app.operatingSystem).toBe("iOS, Android");
    expect(app.offers).toMatchObject({ price: "0", priceCurrency: "AED" });
    expect(app.aggregateRating).toMatchObject({ ratingValue: 4.8, ratingCount: 47 });
  });

  it("ties the page to its site, its subject and its publisher by @id", () => {
    const ids = new Set(nodes.map((node) => node["@id"]));
    expect(byType("WebPage").isPartOf["@id"]).toBe(byType("WebSite")["@id"]);
    expect(byType("WebPage").mainEntity["@id"]).toBe(byType("MobileApplication")["@id"]);
    expect(byType("WebSite").publisher["@id"]).toBe(byType("Organization")["@id"]);
    for (const node of nodes) {
      for (const ref of JSON.stringify(node).matchAll(/\{"@id":"([^"]+)"\}/g)) {
        expect(ids, ref[1]).toContain(ref[1]);
      }
    }
  });
});

describe("the structured data in each language", () => {
  it("says the language of the site, the page and the app", () => {
    for (const [locale, from] of [
      ["en", nodes],
      ["ar", arNodes],
    ] as const) {
      for (const type of ["WebSite", "WebPage", "MobileApplication"]) {
        expect(byType(type, from).inLanguage, `${locale} ${type}`).toBe(locale);
      }
    }
  });

  it("names and describes things in Arabic on the Arabic page", () => {
    expect(byType("WebPage", arNodes)).toMatchObject({
      name: arHeads.home.title,
      description: arHeads.home.description.default,
      url: "https://darb.example/ar",
    });
    expect(byType("WebSite", arNodes)).toMatchObject({
      name: "درب",
      alternateName: ["Darb"],
      url: "https://darb.example/ar",
    });
    expect(byType("MobileApplication", arNodes)).toMatchObject({
      name: "درب",
      description: arHeads.home.description.default,
    });
    expect(byType("Organization", arNodes).name).toBe("درب");
    expect(byType("Service", arNodes).areaServed.name).toBe("دبي");
    expect(
      byType("Organization", arNodes).makesOffer.map((offer: { name: string }) => offer.name),
    ).toEqual(arPlans.items.map((plan) => `درب ${plan.name}`));
    // No English words are left in what the Arabic graph says in words.
    const { name, description } = byType("Service", arNodes);
    expect(`${name} ${description}`).not.toMatch(/[A-Za-z]/);
    expect(byType("WebPage").description).toBe(heads.home.description.default);
  });

  it("keeps the same @id for the Organization, the Service and the app in both languages", () => {
    for (const type of ["Organization", "Service", "MobileApplication"]) {
      expect(byType(type, arNodes)["@id"], type).toBe(byType(type)["@id"]);
    }
    expect(byType("WebSite", arNodes)["@id"]).not.toBe(byType("WebSite")["@id"]);
    expect(byType("WebPage", arNodes)["@id"]).toBe("https://darb.example/ar#webpage");
  });
});
