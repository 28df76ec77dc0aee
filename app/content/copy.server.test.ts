import { describe, expect, it } from "vitest";
import { landing as arLanding } from "~/content/ar/landing";
import { legal as arLegal } from "~/content/ar/legal";
import { howItWorks as arHowItWorks } from "~/content/ar/sections";
import { copyFor } from "~/content/copy.server";
import { landing } from "~/content/landing";
import { legal } from "~/content/legal";
import { howItWorks } from "~/content/sections";

/** The three places that say when the beta's link comes, as a page shows them. */
const when = (instantReply: boolean, locale: "en" | "ar") => {
  const copy = copyFor(locale, { instantReply });
  return [
    copy.landing.hero.next,
    copy.howItWorks.steps[0].body,
    copy.legal.terms.beta.ask,
  ] as string[];
};

const WORDS = {
  en: { landing, howItWorks, legal, hour: /within the hour, 8 am to 10 pm/, seconds: /in seconds/ },
  ar: {
    landing: arLanding,
    howItWorks: arHowItWorks,
    legal: arLegal,
    hour: /خلال ساعة.*من 8 صباحًا (حتى|إلى) 10 مساءً/,
    seconds: /خلال ثوانٍ/,
  },
} as const;

describe("the words on when the beta's link comes", () => {
  it.each(["en", "ar"] as const)(
    "(%s) say within the hour, 8 am to 10 pm, while the chat's reply does not send the link",
    (locale) => {
      const words = WORDS[locale];
      expect(when(false, locale)).toEqual([
        words.landing.hero.next,
        words.howItWorks.steps[0].body,
        words.legal.terms.beta.ask,
      ]);
      expect(copyFor(locale)).toBe(copyFor(locale, { instantReply: false }));
      for (const text of when(false, locale)) {
        expect(text).toMatch(words.hour);
        expect(text).not.toMatch(words.seconds);
      }
    },
  );

  it.each(["en", "ar"] as const)(
    "(%s) say in seconds, at any hour, while it does; e-mail still within the hour",
    (locale) => {
      const words = WORDS[locale];
      expect(when(true, locale)).toEqual([
        words.landing.hero.nextInstant,
        words.howItWorks.firstStepInstant,
        words.legal.terms.beta.askInstant,
      ]);
      const [hero, step, terms] = when(true, locale);
      for (const text of [hero, step]) {
        expect(text).toMatch(words.seconds);
        expect(text).not.toMatch(words.hour);
      }
      // The terms name e-mail too, which a person still answers.
      expect(terms).toMatch(words.seconds);
      expect(terms).toMatch(words.hour);
    },
  );

  it("changes nothing else", () => {
    for (const locale of ["en", "ar"] as const) {
      const team = copyFor(locale);
      const instant = copyFor(locale, { instantReply: true });
      expect(instant.howItWorks.steps.slice(1)).toEqual(team.howItWorks.steps.slice(1));
      expect(instant.legal.privacy).toBe(team.legal.privacy);
      expect(instant.legal.terms.beta.body).toBe(team.legal.terms.beta.body);
      expect({ ...instant.landing.hero, next: "" }).toEqual({ ...team.landing.hero, next: "" });
      for (const key of Object.keys(team) as (keyof typeof team)[]) {
        if (!["landing", "howItWorks", "legal"].includes(key)) expect(instant[key]).toBe(team[key]);
      }
    }
  });
});
