import { useRef } from "react";
import { BrandMark } from "~/components/BrandMark";
import { HeaderContactLink } from "~/components/HeaderContactLink";
import { LanguageSwitch } from "~/components/LanguageSwitch";
import { MenuButton } from "~/components/MenuButton";
import { PageLink } from "~/components/PageLink";
import { SectionLink } from "~/components/SectionLink";
import { ShareMenu } from "~/components/ShareMenu";
import { brand } from "~/content/brand";
import { useMenu } from "~/hooks/use-menu";
import { useLocale, useOptionalUi } from "~/hooks/use-site";
import { contactHref } from "~/lib/cta";
import { localePath } from "~/lib/locale";
import type { SiteSettings } from "~/lib/site.server";

const NAV_ID = "site-nav";

export function SiteHeader({
  site,
}: {
  /** Missing only on the error screen, which then shows the brand alone. */
  site?: SiteSettings;
}) {
  const ui = useOptionalUi();
  const locale = useLocale();
  const header = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { open, send } = useMenu(header, button);

  return (
    <header
      ref={header}
      className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/95 backdrop-blur dark:border-ink-800 dark:bg-ink-950/95"
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-5">
        <PageLink
          to={localePath(locale, "/")}
          className="flex min-h-11 items-center gap-2 rounded-lg text-lg font-bold tracking-tight"
          aria-label={ui?.nav.home ?? brand.name}
        >
          <BrandMark />
          <span>{ui?.brandName ?? brand.name}</span>
        </PageLink>
        {site && ui ? (
          <>
            <nav
              id={NAV_ID}
              aria-label={ui.nav.label}
              // Small screens: a sheet that slides in from the reading side (the right in Arabic).
              className={`${open ? "visible translate-x-0" : "invisible -translate-x-full rtl:translate-x-full"} absolute start-0 top-16 h-[calc(100dvh-4rem)] w-72 max-w-[85vw] overflow-y-auto border-e border-slate-200 bg-white shadow-xl motion-safe:transition-[translate,visibility] motion-safe:duration-200 md:visible md:static md:h-auto md:w-auto md:max-w-none md:translate-x-0 md:overflow-visible md:border-0 md:bg-transparent md:shadow-none dark:border-ink-800 dark:bg-ink-950 md:dark:bg-transparent`}
            >
              <ul className="mx-auto flex max-w-6xl flex-col px-4 py-2 md:flex-row md:gap-1 md:p-0">
                {ui.nav.links.map((link) => (
                  <li key={link.id}>
                    <SectionLink
                      id={link.id}
                      onNavigate={() => send("link")}
                      className="flex min-h-12 items-center rounded-lg px-3 font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-900 md:min-h-11 md:text-sm dark:text-slate-200 dark:hover:bg-ink-800 dark:hover:text-white"
                    >
                      {link.label}
                    </SectionLink>
                  </li>
                ))}
                <li className="mt-2 border-t border-slate-200 pt-2 md:hidden dark:border-ink-800">
                  <LanguageSwitch className="flex min-h-12 w-full px-3" />
                </li>
              </ul>
            </nav>
            <div className="flex items-center gap-1">
              {/* Beside the icons from 768 px; in the menu below that, where 320 px has no room. */}
              <LanguageSwitch className="hidden md:inline-flex" />
              <HeaderContactLink
                cta="email"
                icon="mail"
                label={ui.nav.email}
                href={contactHref("email", site, ui.contact)}
              />
              <HeaderContactLink
                cta="whatsapp"
                icon="whatsapp"
                label={ui.nav.whatsapp}
                href={contactHref("whatsapp", site, ui.contact)}
              />
              <ShareMenu siteUrl={site.siteUrl} placement="header" variant="icon" />
              <MenuButton
                open={open}
                onToggle={() => send("toggle")}
                buttonRef={button}
                controls={NAV_ID}
                labels={ui.nav}
              />
            </div>
          </>
        ) : null}
      </div>
    </header>
  );
}
