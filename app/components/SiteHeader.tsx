import { useRef } from "react";
import { BrandMark } from "~/components/BrandMark";
import { HeaderContactLink } from "~/components/HeaderContactLink";
import { LanguageSwitch } from "~/components/LanguageSwitch";
import { MenuButton } from "~/components/MenuButton";
import { MenuCta } from "~/components/MenuCta";
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
            {/*
             * Dims the page behind the open sheet; a tap on it closes the menu. Inside the header
             * (the header's blur would pin a `fixed` child to the bar anyway), so the press that
             * starts the tap is not "outside": the menu closes on the click, which the backdrop
             * then takes, rather than on the press, which would let the click reach a link below.
             * Pointer only: keyboards have Escape and the button, so it is neither focusable nor
             * seen by assistive technology.
             */}
            <div
              aria-hidden="true"
              onClick={() => send("outside")}
              className={`${open ? "visible opacity-100" : "invisible opacity-0"} absolute inset-x-0 top-16 h-[calc(100dvh-4rem)] bg-ink-950/50 motion-safe:transition-[opacity,visibility] motion-safe:duration-200 lg:hidden dark:bg-black/60`}
            />
            <nav
              id={NAV_ID}
              aria-label={ui.nav.label}
              // Below 1024 px (the bar has no room for five sections and the tools before that):
              // a sheet that slides in from the reading side, the right in Arabic. Every sheet
              // style is scoped with max-lg:, so nothing has to be undone for the bar: an undoing
              // `lg:translate-x-0` loses to `rtl:translate-x-full` and pushed the Arabic nav
              // over the logo and off the screen.
              className={`${open ? "max-lg:visible" : "max-lg:invisible max-lg:-translate-x-full max-lg:rtl:translate-x-full"} max-lg:absolute max-lg:start-0 max-lg:top-16 max-lg:h-[calc(100dvh-4rem)] max-lg:w-72 max-lg:max-w-[85vw] max-lg:overflow-y-auto max-lg:border-e max-lg:border-slate-200 max-lg:bg-white max-lg:shadow-xl max-lg:motion-safe:transition-[translate,visibility] max-lg:motion-safe:duration-200 max-lg:dark:border-ink-800 max-lg:dark:bg-ink-950`}
            >
              <ul className="flex max-lg:flex-col max-lg:px-4 max-lg:py-2 lg:gap-1">
                {ui.nav.links.map((link) => (
                  <li key={link.id}>
                    <SectionLink
                      id={link.id}
                      onNavigate={() => send("link")}
                      className="flex min-h-12 items-center rounded-lg px-3 font-semibold whitespace-nowrap text-slate-700 hover:bg-slate-100 hover:text-slate-900 lg:min-h-11 lg:text-sm dark:text-slate-200 dark:hover:bg-ink-800 dark:hover:text-white"
                    >
                      {link.label}
                    </SectionLink>
                  </li>
                ))}
              </ul>
              <div className="flex flex-col gap-2 border-t border-slate-200 px-4 py-4 lg:hidden dark:border-ink-800">
                <MenuCta
                  label={ui.nav.menuCta}
                  href={contactHref("whatsapp", site, ui.contact)}
                  onNavigate={() => send("link")}
                />
                {/* Beside the icons from 768 px; here below that, where 320 px has no room. */}
                <LanguageSwitch className="flex min-h-12 w-full px-3 md:hidden" />
              </div>
            </nav>
            <div className="flex items-center gap-1">
              <LanguageSwitch className="hidden md:inline-flex" />
              {/* WhatsApp first: the main route to the app. */}
              <HeaderContactLink
                cta="whatsapp"
                icon="whatsapp"
                label={ui.nav.whatsapp}
                href={contactHref("whatsapp", site, ui.contact)}
              />
              <HeaderContactLink
                cta="email"
                icon="mail"
                label={ui.nav.email}
                href={contactHref("email", site, ui.contact)}
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
