import { MapPin, Phone } from "lucide-react";
import { Fragment } from "react";
import { BrandMark } from "~/components/BrandMark";
import { CtaLink } from "~/components/CtaLink.server";
import { InlineIcon } from "~/components/InlineIcon.server";
import { LanguageSwitch } from "~/components/LanguageSwitch";
import { PageLink } from "~/components/PageLink";
import { SectionLink } from "~/components/SectionLink";
import { useCopy } from "~/hooks/use-copy.server";
import { useLocale } from "~/hooks/use-site";
import type { SiteSettings } from "~/pages/site-settings.server";
import { localePath } from "~/shared/locale";

/** A footer link: a 44 px target, underlined on hover (`footer-link` in tailwind.css). */
const linkClass = "footer-link";

/**
 * The company behind the site (COMPANY_* settings), each part only while it is set: its legal
 * name, trade licence and registered address, on one line under the copyright.
 */
function CompanyLine({ company }: { company: NonNullable<SiteSettings["company"]> }) {
  const { legal } = useCopy();
  const [before, after] = legal.company.licence.split("{licence}");
  const parts = [
    company.name && <bdi>{company.name}</bdi>,
    // The number stays beside its label (a no-break space) and reads left to right.
    company.licence && (
      <>
        {before?.replace(/ $/, "\u00a0")}
        <bdi dir="ltr">{company.licence}</bdi>
        {after}
      </>
    ),
    company.address && <bdi>{company.address}</bdi>,
  ].filter(Boolean);
  return (
    <p className="px-5 pb-4 text-center text-xs">
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: three fixed slots, never reordered
        <Fragment key={index}>
          {index > 0 ? " · " : null}
          {part}
        </Fragment>
      ))}
    </p>
  );
}

export function SiteFooter({ site }: { site: SiteSettings }) {
  const { brand, footer, landing } = useCopy();
  const locale = useLocale();
  return (
    <footer className="render-when-near site-footer">
      <div className="mx-auto grid max-w-6xl gap-4 px-5 py-5 sm:py-8 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_2fr]">
        <div className="flex flex-wrap items-center justify-between gap-x-4 sm:block">
          <div>
            <p className="flex items-center gap-2 text-base font-bold strong">
              <BrandMark className="size-6" />
              {brand.name}
            </p>
            <p className="mt-1">{brand.tagline}</p>
          </div>
          <LanguageSwitch className="inline-flex sm:-ms-2.5 sm:mt-2" />
        </div>
        <div>
          <h2 className="font-semibold strong">{footer.contactHeading}</h2>
          <address className="flex flex-wrap items-center gap-x-5 not-italic sm:flex-col sm:items-start">
            <p className="flex min-h-11 items-center gap-2">
              <InlineIcon icon={MapPin} className="size-4" />
              {footer.address}
            </p>
            <CtaLink
              variant="inline"
              placement="footer"
              icon="mail"
              cta={{
                text: site.email,
                ctaType: "email",
                href: `mailto:${site.email}`,
                useThankYouPage: false,
              }}
            >
              <bdi dir="ltr">{site.email}</bdi>
            </CtaLink>
            <a className={`${linkClass} gap-2`} href={site.phoneHref}>
              <InlineIcon icon={Phone} className="size-4" />
              <bdi dir="ltr">{site.phone}</bdi>
            </a>
          </address>
        </div>
        {/* Links side by side, not one per line: the spec's items in a screen's third. */}
        <nav
          id="footer-nav"
          aria-label={footer.navLabel}
          className="grid gap-4 sm:col-span-2 lg:col-span-1"
        >
          <div>
            <h2 className="font-semibold strong">{footer.pagesHeading}</h2>
            <ul className="flex flex-wrap gap-x-5">
              {footer.links.map((link) => (
                <li key={link.href}>
                  <PageLink to={localePath(locale, link.href)} className={linkClass}>
                    {link.label}
                  </PageLink>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2 className="font-semibold strong">{footer.sectionsHeading}</h2>
            <ul className="flex flex-wrap gap-x-5">
              {landing.nav.links.map((link) => (
                <li key={link.id}>
                  <SectionLink id={link.id} className={linkClass}>
                    {link.label}
                  </SectionLink>
                </li>
              ))}
            </ul>
          </div>
        </nav>
      </div>
      {/* One line on a 390 px phone: the links' 44 px take the place of the copyright's padding. */}
      <div className="flex flex-wrap items-center justify-center gap-x-4 border-t border-slate-200 py-1 text-center dark:border-ink-800">
        <p>
          © {site.year} {brand.name}. {footer.rights}
        </p>
        {/* Together, so that on a narrow phone they wrap as one. */}
        <span className="flex gap-x-4">
          <PageLink to={localePath(locale, "/privacy")} className={linkClass}>
            {footer.legal.privacy}
          </PageLink>
          <PageLink to={localePath(locale, "/terms")} className={linkClass}>
            {footer.legal.terms}
          </PageLink>
        </span>
      </div>
      {site.company ? <CompanyLine company={site.company} /> : null}
    </footer>
  );
}
