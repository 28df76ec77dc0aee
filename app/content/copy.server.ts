/**
 * Every word of the site in both languages, for the server: loaders, heads and static parts.
 * The browser never imports this; it gets the words its interactive parts need from the root
 * loader (content/ui-copy.server.ts), in the page's language only.
 */
import * as appScreen from "~/content/app-screen";
import * as arAppScreen from "~/content/ar/app-screen";
import * as arBrand from "~/content/ar/brand";
import * as arChrome from "~/content/ar/chrome";
import * as arConversion from "~/content/ar/conversion";
import * as arDownload from "~/content/ar/download";
import * as arFaq from "~/content/ar/faq";
import * as arFooter from "~/content/ar/footer";
import * as arLanding from "~/content/ar/landing";
import * as arLegal from "~/content/ar/legal";
import * as arPages from "~/content/ar/pages";
import * as arPlans from "~/content/ar/plans";
import * as arProof from "~/content/ar/proof";
import * as arSections from "~/content/ar/sections";
import * as arShare from "~/content/ar/share";
import * as arUi from "~/content/ar/ui";
import * as brand from "~/content/brand";
import * as chrome from "~/content/chrome";
import * as conversion from "~/content/conversion";
import * as download from "~/content/download";
import * as faq from "~/content/faq";
import * as footer from "~/content/footer";
import * as landing from "~/content/landing";
import * as legal from "~/content/legal";
import type { Localized } from "~/content/localized";
import * as pages from "~/content/pages";
import * as plans from "~/content/plans";
import * as proof from "~/content/proof";
import * as sections from "~/content/sections";
import * as share from "~/content/share";
import * as ui from "~/content/ui";
import type { Locale } from "~/shared/locale";

const english = {
  ...appScreen,
  ...brand,
  ...chrome,
  contact: conversion.contact,
  heroCtas: conversion.heroCtas,
  thankYou: conversion.thankYou,
  ...download,
  ...faq,
  ...footer,
  ...landing,
  ...legal,
  ...pages,
  ...plans,
  ...proof,
  ...sections,
  ...share,
  ...ui,
};

export type Copy = Localized<typeof english>;

// The compiler checks here that Arabic says everything English says, with the same numbers.
const arabic: Copy = {
  ...arAppScreen,
  ...arBrand,
  ...arChrome,
  ...arConversion,
  ...arDownload,
  ...arFaq,
  ...arFooter,
  ...arLanding,
  ...arLegal,
  ...arPages,
  ...arPlans,
  ...arProof,
  ...arSections,
  ...arShare,
  ...arUi,
};

/**
 * What of the settings the words depend on (the one Config has it). While the chat's automatic
 * reply sends the beta's link itself, the page and the terms promise it in seconds, at any hour;
 * otherwise within the hour, 8 am to 10 pm, as the team answers.
 */
export type CopySettings = { instantReply: boolean };

/** The words that say when the link comes, as the automatic reply sends it. */
function withInstantReply(copy: Copy): Copy {
  const { landing, howItWorks, legal } = copy;
  const [first, ...others] = howItWorks.steps;
  return {
    ...copy,
    landing: { ...landing, hero: { ...landing.hero, next: landing.hero.nextInstant } },
    howItWorks: {
      ...howItWorks,
      steps: [{ ...first, body: howItWorks.firstStepInstant }, ...others],
    },
    legal: {
      ...legal,
      terms: { ...legal.terms, beta: { ...legal.terms.beta, ask: legal.terms.beta.askInstant } },
    },
  };
}

// Each put together once: a component's render reads them, and the experiments' copy is kept
// per object (hooks/use-copy.server.ts).
const byLocale: Record<Locale, Record<"team" | "instant", Copy>> = {
  en: { team: english, instant: withInstantReply(english) },
  ar: { team: arabic, instant: withInstantReply(arabic) },
};

/** Every word in `locale`, as `settings` have the site say them (none: as without the reply). */
export function copyFor(locale: Locale, settings?: CopySettings): Copy {
  return byLocale[locale][settings?.instantReply ? "instant" : "team"];
}
