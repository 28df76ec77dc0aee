import { describe, expect, it } from "vitest";
import { landingGraph } from "~/lib/structured-data";

const graph = landingGraph({
  siteUrl: "https://darb.example",
  email: "hello@darb.example",
  phone: "+971 4 555 0134",
});
// biome-ignore lint/suspicious/noExplicitAny: JSON-LD is read back as plain JSON, as a crawler does.
const nodes = JSON.parse(JSON.stringify(graph))["@graph"] as any[];
const byType = (type: string) => nodes.find((node) => node["@type"] === type);

describe("the landing page's structured data", () => {
  it("is one graph of an Organization, a Service and a MobileApplication", () => {
    expect(graph["@context"]).toBe("https://schema.org");
    expect(nodes.map((node) => node["@type"])).toEqual([
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
    expect(app.inLanguage).toBe("en-AE");
  });
});
