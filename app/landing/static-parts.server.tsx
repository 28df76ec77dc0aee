import { Fragment, type ReactNode } from "react";
import { AppScreen } from "~/components/AppScreen.server";
import { CountdownLabel, CountdownNotes } from "~/components/CountdownWords.server";
import { Download } from "~/components/Download.server";
import { Faq } from "~/components/Faq.server";
import { Features } from "~/components/Features.server";
import { GetStartedCtas } from "~/components/GetStartedCtas.server";
import { GetStartedIntro } from "~/components/GetStartedIntro.server";
import { HeroIntro } from "~/components/HeroIntro.server";
import { HeroProof } from "~/components/HeroProof.server";
import { HowItWorks } from "~/components/HowItWorks.server";
import { IconSprite } from "~/components/IconSprite.server";
import { LanguageSuggestion } from "~/components/LanguageSuggestion.server";
import { MenuCta } from "~/components/MenuCta.server";
import { NoJsView } from "~/components/NoJsView.server";
import { PageSkeleton } from "~/components/PageSkeleton.server";
import { Plans } from "~/components/Plans.server";
import { RenderBeforeJumps } from "~/components/RenderBeforeJumps.server";
import { SafetyResults } from "~/components/SafetyResults.server";
import { SiteFooter } from "~/components/SiteFooter.server";
import { StickyAction } from "~/components/StickyAction.server";
import { StructuredData } from "~/components/StructuredData.server";
import type { StaticPartRenderers } from "~/components/static-parts";
import { Testimonial } from "~/components/Testimonial.server";
import { TrustBadges } from "~/components/TrustBadges.server";
import { useSite } from "~/hooks/use-site";
import { BODY_SECTIONS, type BodySection } from "~/landing/sections";

/** What each section of the landing page's body shows; their order is landing/sections.ts's. */
const sections: Record<BodySection, () => ReactNode> = {
  "how-it-works": () => <HowItWorks />,
  features: () => <Features />,
  "safety-results": () => <SafetyResults />,
  plans: () => <Plans />,
  testimonial: () => <Testimonial />,
  "trust-badges": () => <TrustBadges />,
  download: () => <Download />,
  faq: () => <Faq />,
};

/**
 * The footer, then the no-JS view's image: in a part the server alone renders, on every page, so
 * no byte of it is in the bundle and a page gains no element of its own for it.
 */
function Footer() {
  return (
    <>
      <SiteFooter site={useSite()} />
      <NoJsView />
    </>
  );
}

/**
 * What each static part shows. Only the server imports this file, so none of it reaches the
 * browser's bundle; the parts render inside the page's own tree, with its loaders' data.
 */
export const staticParts: StaticPartRenderers = {
  "hero-intro": () => <HeroIntro />,
  "hero-proof": () => <HeroProof />,
  "countdown-label": () => <CountdownLabel />,
  "countdown-notes": () => <CountdownNotes />,
  "phone-mockup": () => (
    <AppScreen screen="drive" narrow="drive-cropped" className="app-screen-cropped" />
  ),
  // The sections in landing/sections.ts's order, between the hero and the closing call.
  "landing-body": () =>
    BODY_SECTIONS.map((section) => <Fragment key={section}>{sections[section]()}</Fragment>),
  "get-started-intro": () => <GetStartedIntro />,
  "get-started-ctas": () => <GetStartedCtas />,
  "sticky-action": () => <StickyAction />,
  footer: () => <Footer />,
  "menu-cta": () => <MenuCta />,
  "language-offer": () => <LanguageSuggestion />,
  "page-skeleton": () => <PageSkeleton />,
  "structured-data": () => <StructuredData />,
  "icon-sprite": () => <IconSprite />,
  "render-before-jumps": () => <RenderBeforeJumps />,
};
