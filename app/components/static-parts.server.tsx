import { CountdownLabel, CountdownNotes } from "~/components/CountdownWords";
import { Download } from "~/components/Download";
import { Faq } from "~/components/Faq";
import { Features } from "~/components/Features";
import { GetStartedCtas } from "~/components/GetStartedCtas";
import { GetStartedIntro } from "~/components/GetStartedIntro";
import { HeroIntro } from "~/components/HeroIntro";
import { HeroProof } from "~/components/HeroProof";
import { HowItWorks } from "~/components/HowItWorks";
import { IconSprite } from "~/components/IconSprite";
import { LanguageSuggestion } from "~/components/LanguageSuggestion";
import { MenuCta } from "~/components/MenuCta";
import { PageSkeleton } from "~/components/PageSkeleton";
import { PhoneMockup } from "~/components/PhoneMockup";
import { Plans } from "~/components/Plans";
import { SafetyResults } from "~/components/SafetyResults";
import { SiteFooter } from "~/components/SiteFooter";
import { StructuredData } from "~/components/StructuredData";
import { Testimonial } from "~/components/Testimonial";
import { TrustBadges } from "~/components/TrustBadges";
import { useSite } from "~/hooks/use-site";
import type { StaticPartRenderers } from "~/lib/static-parts";

function Footer() {
  return <SiteFooter site={useSite()} />;
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
  "phone-mockup": () => <PhoneMockup />,
  // Spec §2's order, between the hero and the closing call.
  "landing-body": () => (
    <>
      <HowItWorks />
      <Features />
      <SafetyResults />
      <Plans />
      <Testimonial />
      <TrustBadges />
      <Download />
      <Faq />
    </>
  ),
  "get-started-intro": () => <GetStartedIntro />,
  "get-started-ctas": () => <GetStartedCtas />,
  footer: () => <Footer />,
  "menu-cta": () => <MenuCta />,
  "language-offer": () => <LanguageSuggestion />,
  "page-skeleton": () => <PageSkeleton />,
  "structured-data": () => <StructuredData />,
  "icon-sprite": () => <IconSprite />,
};
