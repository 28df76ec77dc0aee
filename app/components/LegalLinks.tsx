import { PageLink } from "~/components/PageLink";
import type { ThankYouCopy } from "~/content/conversion";
import { useLocale } from "~/hooks/use-site";
import { localePath } from "~/shared/locale";

/** The thank-you page's words for them (`thankYou.legal` in content/conversion.ts). */
export type LegalLinksCopy = ThankYouCopy["legal"];

/**
 * The privacy notice and the terms, in the page's language, as 44 px targets side by side, for
 * the thank-you page (the footer has its own, beside the copyright).
 */
export function LegalLinks({ copy, className = "" }: { copy: LegalLinksCopy; className?: string }) {
  const locale = useLocale();
  return (
    <nav
      aria-label={copy.label}
      className={`flex flex-wrap justify-center gap-x-5 text-sm ${className}`}
    >
      <PageLink to={localePath(locale, "/privacy")} className="footer-link">
        {copy.privacy}
      </PageLink>
      <PageLink to={localePath(locale, "/terms")} className="footer-link">
        {copy.terms}
      </PageLink>
    </nav>
  );
}
