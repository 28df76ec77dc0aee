import { describe, expect, it } from "vitest";
import { copyFor } from "~/content/copy.server";
import { withVariantCopy } from "~/experiments/variant-copy.server";
import type { VariantCopy } from "~/shared/experiment";

const changes: VariantCopy = {
  "hero.headline": { en: "Cashback first.", ar: "الاسترداد أولًا." },
  "hero.subheadline": { en: "A new lead.", ar: "مقدمة جديدة." },
  "hero.mainAction": { en: "Send me the app", ar: "أرسل لي التطبيق" },
  "hero.mainActionNote": { en: "Within the hour.", ar: "خلال ساعة." },
};

describe("a variant's copy", () => {
  it("replaces the hero's words and its main action's label in the page's language", () => {
    for (const locale of ["en", "ar"] as const) {
      const copy = withVariantCopy(copyFor(locale), changes, locale);
      expect(copy.landing.hero.headline).toBe(changes["hero.headline"]?.[locale]);
      expect(copy.landing.hero.lead).toBe(changes["hero.subheadline"]?.[locale]);
      expect(copy.landing.hero.next).toBe(changes["hero.mainActionNote"]?.[locale]);
      expect(copy.heroCtas[0].text).toBe(changes["hero.mainAction"]?.[locale]);
      // The rest is the page's own.
      expect(copy.heroCtas.slice(1)).toEqual(copyFor(locale).heroCtas.slice(1));
      expect(copy.landing.hero.badge).toBe(copyFor(locale).landing.hero.badge);
    }
  });

  it("keeps what a variant does not change", () => {
    const only: VariantCopy = { "hero.headline": changes["hero.headline"] };
    const copy = withVariantCopy(copyFor("en"), only, "en");
    expect(copy.landing.hero.lead).toBe(copyFor("en").landing.hero.lead);
    expect(copy.heroCtas).toEqual(copyFor("en").heroCtas);
  });
});
