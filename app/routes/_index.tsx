import type { MetaFunction } from "@remix-run/node";
import { Download } from "~/components/Download";
import { Faq } from "~/components/Faq";
import { Features } from "~/components/Features";
import { GetStarted } from "~/components/GetStarted";
import { Hero } from "~/components/Hero";
import { HowItWorks } from "~/components/HowItWorks";
import { Plans } from "~/components/Plans";
import { SafetyResults } from "~/components/SafetyResults";
import { Testimonial } from "~/components/Testimonial";
import { TrustBadges } from "~/components/TrustBadges";
import { heads } from "~/content/heads";
import { headContext, pageMeta, siteOf } from "~/lib/seo";
import { landingGraph } from "~/lib/structured-data";

export const meta: MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  const structuredData = site ? landingGraph(site) : undefined;
  return pageMeta({ ...heads.home, path: "/", structuredData }, headContext(matches));
};

/** Spec §2: the landing page's sections, in this order (header and footer come from the root). */
export default function Index() {
  return (
    <>
      <Hero />
      <HowItWorks />
      <Features />
      <SafetyResults />
      <Plans />
      <Testimonial />
      <TrustBadges />
      <Download />
      <Faq />
      <GetStarted />
    </>
  );
}
