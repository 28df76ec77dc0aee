import { Mail, MapPin, Phone } from "lucide-react";
import { BrandMark } from "~/components/BrandMark";
import { CtaLink } from "~/components/CtaLink.server";
import { LanguageSwitch } from "~/components/LanguageSwitch";
import { PageLink } from "~/components/PageLink";
import { SectionLink } from "~/components/SectionLink";
import { useCopy } from "~/hooks/use-copy.server";
import { useLocale } from "~/hooks/use-site";
import type { SiteSettings } from "~/server/site.server";
import { localePath } from "~/shared/locale";

const linkClass =
  "inline-flex min-h-11 items-center underline-offset-4 hover:text-slate-900 hover:underline dark:hover:text-white";

export function SiteFooter({ site }: { site: SiteSettings }) {
  const { brand, footer, landing } = useCopy();
  const locale = useLocale();
  return (
    <footer className="render-when-near border-t border-slate-200 bg-slate-50 text-sm text-slate-700 dark:border-ink-800 dark:bg-ink-900 dark:text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-5 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-3">
          <p className="flex items-center gap-2 text-base font-bold text-slate-900 dark:text-white">
            <BrandMark className="size-6" />
            {brand.name}
          </p>
          <p>{brand.tagline}</p>
          <LanguageSwitch className="-ms-2.5 inline-flex" />
        </div>
        <div>
          <h2 className="font-semibold text-slate-900 dark:text-white">{footer.contactHeading}</h2>
          <address className="mt-2 flex flex-col items-start not-italic">
            <p className="flex min-h-11 items-center gap-2">
              <MapPin aria-hidden="true" className="size-4 shrink-0" />
              {footer.address}
            </p>
            <CtaLink
              variant="inline"
              placement="footer"
              icon={Mail}
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
              <Phone aria-hidden="true" className="size-4 shrink-0" />
              <bdi dir="ltr">{site.phone}</bdi>
            </a>
          </address>
        </div>
        <nav
          id="footer-nav"
          aria-label={footer.navLabel}
          className="sm:col-span-2 sm:grid sm:grid-cols-2 sm:gap-6"
        >
          <div>
            <h2 className="font-semibold text-slate-900 dark:text-white">{footer.pagesHeading}</h2>
            <ul className="mt-2">
              {footer.links.map((link) => (
                <li key={link.href}>
                  <PageLink to={localePath(locale, link.href)} className={linkClass}>
                    {link.label}
                  </PageLink>
                </li>
              ))}
            </ul>
          </div>
          <div className="mt-6 sm:mt-0">
            <h2 className="font-semibold text-slate-900 dark:text-white">
              {footer.sectionsHeading}
            </h2>
            <ul className="mt-2">
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
      <p className="border-t border-slate-200 py-5 text-center dark:border-ink-800">
        © {site.year} {brand.name}. {footer.rights}
      </p>
    </footer>
  );
}
