import { describe, expect, it } from "vitest";
import { legal as arLegal } from "~/content/ar/legal";
import { copyFor } from "~/content/copy.server";
import { legal } from "~/content/legal";
import type { LegalDocument } from "~/pages/legal-text.server";
import { termsOf } from "~/pages/terms.server";
import { parseConfig } from "~/settings.server";
import { LOCALES, type Locale } from "~/shared/locale";
import { legalText } from "../../tests/support/legal-text";

function terms(env: Record<string, string> = {}, locale: Locale = "en"): LegalDocument {
  const config = parseConfig(env);
  // As the route reads them: the words as these settings have them.
  return termsOf({ copy: copyFor(locale, config), locale, config });
}

/** The chat's automatic reply, with a beta link for either phone. */
const INSTANT_REPLY = {
  WHATSAPP_VERIFY_TOKEN: "verify-token-1",
  WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef",
  WHATSAPP_ACCESS_TOKEN: "EAAG_system_user_token_0123456789",
  WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
  BETA_LINK_IOS: "https://testflight.apple.com/join/AbCdEf12",
  BETA_LINK_ANDROID: "https://play.google.com/apps/testing/ae.darb.app",
};

describe("the terms", () => {
  it("price Plus and Pro as the plans do, in each language's way", () => {
    // Intl writes a no-break space between the currency and the amount.
    expect(legalText(terms(), "prices")).toMatch(
      /Plus \(AED\s149\) and Pro \(AED\s299\) are priced per year/,
    );
    const arabic = legalText(terms({}, "ar"), "prices");
    // And Arabic's marks keep the price right to left.
    expect(arabic).toMatch(
      /بلس \(\u200f?149\sد\.إ\.\u200f?\) وبرو \(\u200f?299\sد\.إ\.\u200f?\) فأسعارهما سنويًا/,
    );
  });

  it("say the link comes in seconds on WhatsApp only while the chat's reply sends it", () => {
    for (const [locale, words] of [
      ["en", legal],
      ["ar", arLegal],
    ] as const) {
      const { ask, askInstant, body } = words.terms.beta;
      const team = legalText(terms({}, locale), "beta");
      expect(team).toContain(ask);
      expect(team).not.toContain(askInstant);
      const instant = legalText(terms(INSTANT_REPLY, locale), "beta");
      expect(instant).toContain(askInstant);
      expect(instant).not.toContain(ask);
      // The rest of the beta's section is the same either way.
      for (const paragraph of body) expect(instant).toContain(paragraph);
    }
    expect(legalText(terms(INSTANT_REPLY), "beta")).toMatch(/comes in seconds, any time/);
  });

  it("give the beta's end only when BETA_CLOSES_AT sets one", () => {
    expect(legalText(terms(), "beta")).not.toContain("Beta places close");
    expect(legalText(terms({ BETA_CLOSES_AT: "2026-12-15" }), "beta")).toContain(
      "Beta places close 15 December, Dubai time.",
    );
  });

  it("name the company and the contact routes from the settings, and nothing unset", () => {
    const unset = legalText(terms(), "who");
    expect(unset).not.toMatch(/licence|Registered address/i);
    expect(unset).toContain("hello@darb.ae");
    expect(unset).toContain("+971 4 555 0134");
    const set = legalText(
      terms({
        COMPANY_NAME: "Darb Technologies FZ-LLC",
        COMPANY_LICENCE: "DMCC-123456",
        COMPANY_ADDRESS: "Office 1, Dubai",
        CONTACT_PHONE: "+971 4 555 0199",
      }),
      "who",
    );
    expect(set).toContain("This website is run by Darb Technologies FZ-LLC.");
    expect(set).toContain("Trade licence no. DMCC-123456");
    expect(set).toContain("Registered address: Office 1, Dubai");
    expect(set).toContain("+971 4 555 0199");
  });

  it("say what up to 25% depends on, and link the privacy notice as a page of the site", () => {
    expect(legalText(terms(), "cashback")).toContain("depends on the insurer and on your score");
    const privacy = terms().sections.find((section) => section.id === "privacy");
    expect(privacy?.blocks[0]).toEqual({
      paragraph: [
        "What the site records and sends, and how to have it deleted: ",
        { page: "/privacy", text: legal.terms.privacy.link },
        ".",
      ],
    });
  });

  it("leave no slot unfilled, in either language", () => {
    for (const locale of LOCALES) {
      const document = terms({ BETA_CLOSES_AT: "2026-12-15T18:30" }, locale);
      for (const section of document.sections) {
        expect(legalText(document, section.id), section.id).not.toMatch(/[{}]/);
      }
    }
  });
});
