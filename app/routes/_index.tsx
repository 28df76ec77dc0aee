import { json, type LoaderFunctionArgs } from "@remix-run/node";
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
import { getConfig } from "~/lib/config.server";
import { headFor } from "~/lib/head.server";
import { metaFromLoader } from "~/lib/route-meta";
import { landingGraph } from "~/lib/structured-data";

export async function loader({ request }: LoaderFunctionArgs) {
  const config = getConfig();
  const structuredData = landingGraph({
    siteUrl: config.siteUrl,
    email: config.contactEmail,
    phone: config.contactPhone,
  });
  return json({ head: headFor(request, { ...heads.home, path: "/", structuredData }) });
}

export const meta = metaFromLoader;

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
