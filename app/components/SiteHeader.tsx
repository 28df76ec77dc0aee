import { Mail, Menu, MessageCircle, X } from "lucide-react";
import { useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { BrandMark } from "~/components/BrandMark";
import { CtaLink } from "~/components/CtaLink";
import { PageLink } from "~/components/PageLink";
import { SectionLink } from "~/components/SectionLink";
import { ShareMenu } from "~/components/ShareMenu";
import { brand } from "~/content/brand";
import { contact } from "~/content/conversion";
import { landing } from "~/content/landing";
import { useMenu } from "~/hooks/use-menu";
import { contactHref } from "~/lib/cta";
import type { SiteSettings } from "~/lib/site.server";

const NAV_ID = "site-nav";

export function SiteHeader({
  site,
}: {
  /** Missing only on the error screen, which then shows the brand alone. */
  site?: SiteSettings;
}) {
  const copy = landing.nav;
  const header = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { open, send } = useMenu(header, button);
  const hydrated = useHydrated();

  return (
    <header
      ref={header}
      className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/95 backdrop-blur dark:border-ink-800 dark:bg-ink-950/95"
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-5">
        <PageLink
          to="/"
          className="flex min-h-11 items-center gap-2 rounded-lg text-lg font-bold tracking-tight"
          aria-label={`${brand.name}, home`}
        >
          <BrandMark />
          <span>{brand.name}</span>
        </PageLink>
        {site ? (
          <>
            <nav
              id={NAV_ID}
              aria-label={copy.label}
              className={`${open ? "block" : "hidden"} absolute inset-x-0 top-16 border-b border-slate-200 bg-white shadow-lg md:static md:block md:border-0 md:bg-transparent md:shadow-none dark:border-ink-800 dark:bg-ink-950 md:dark:bg-transparent`}
            >
              <ul className="mx-auto flex max-w-6xl flex-col px-4 py-2 md:flex-row md:gap-1 md:p-0">
                {copy.links.map((link) => (
                  <li key={link.id}>
                    <SectionLink
                      id={link.id}
                      onNavigate={() => send("link")}
                      className="flex min-h-12 items-center rounded-lg px-3 font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 md:min-h-11 md:text-sm dark:text-slate-200 dark:hover:bg-ink-800 dark:hover:text-white"
                    >
                      {link.label}
                    </SectionLink>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="flex items-center gap-1">
              <CtaLink
                variant="icon"
                placement="header"
                icon={Mail}
                label={copy.email}
                cta={{
                  text: copy.email,
                  ctaType: "email",
                  href: contactHref("email", site, contact),
                }}
              />
              <CtaLink
                variant="icon"
                placement="header"
                icon={MessageCircle}
                label={copy.whatsapp}
                cta={{
                  text: copy.whatsapp,
                  ctaType: "whatsapp",
                  external: true,
                  href: contactHref("whatsapp", site, contact),
                }}
              />
              <ShareMenu siteUrl={site.siteUrl} placement="header" variant="icon" />
              {hydrated ? (
                <button
                  ref={button}
                  type="button"
                  onClick={() => send("toggle")}
                  aria-expanded={open}
                  aria-controls={NAV_ID}
                  aria-label={open ? copy.closeMenu : copy.menu}
                  className="inline-flex size-11 items-center justify-center rounded-xl hover:bg-slate-100 md:hidden dark:hover:bg-ink-800"
                >
                  {open ? (
                    <X aria-hidden="true" className="size-6" />
                  ) : (
                    <Menu aria-hidden="true" className="size-6" />
                  )}
                </button>
              ) : (
                // Without JavaScript the menu can't open: the same links wait in the footer.
                <a
                  href="#footer-nav"
                  className="inline-flex size-11 items-center justify-center rounded-xl md:hidden"
                  aria-label={copy.menu}
                >
                  <Menu aria-hidden="true" className="size-6" />
                </a>
              )}
            </div>
          </>
        ) : null}
      </div>
    </header>
  );
}
