import { useLocale, useSite } from "~/hooks/use-site";
import { jsonLdText, landingGraph } from "~/pages/structured-data";

/**
 * The landing page's JSON-LD (a static part): in the body, where search engines read it as
 * well as in the head, and rendered once rather than also carried in the loader data.
 */
export function StructuredData() {
  const site = useSite();
  const graph = landingGraph({
    siteUrl: site.siteUrl,
    email: site.email,
    phone: site.phone,
    company: site.company,
    locale: useLocale(),
  });
  return (
    <script
      type="application/ld+json"
      // jsonLdText escapes "<", so no value can close the element.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
      dangerouslySetInnerHTML={{ __html: jsonLdText(graph) }}
    />
  );
}
