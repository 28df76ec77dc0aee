import { useRef } from "react";
import { BrandMark } from "~/components/BrandMark";
import { HeaderContactLink } from "~/components/HeaderContactLink";
import { LanguageSwitch } from "~/components/LanguageSwitch";
import { MenuButton } from "~/components/MenuButton";
import { PageLink } from "~/components/PageLink";
import { SectionLink } from "~/components/SectionLink";
import { ShareMenu } from "~/components/ShareMenu";
import { StaticPart } from "~/components/StaticPart";
import { brand } from "~/content/brand";
import { useMenu } from "~/hooks/use-menu";
import { useLocale, useOptionalUi } from "~/hooks/use-site";
import type { SiteSettings } from "~/pages/site-settings.server";
import { contactHref } from "~/shared/cta";
import { localePath } from "~/shared/locale";

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
    <header ref={header} className="site-header">
      <div className="header-bar">
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
             * (whose blur would pin a `fixed` child to the bar anyway), so its press is not
             * "outside" (use-menu.ts): the menu closes on its click, which the backdrop takes
             * itself, so the tap can never land on a link beneath once the backdrop has gone.
             * Pointer only: keyboards have Escape and the button, so it is neither focusable nor
             * seen by assistive technology. It and the sheet are styled in tailwind.css.
             */}
            <div
              aria-hidden="true"
              data-open={open || undefined}
              onClick={() => send("outside")}
              className="menu-backdrop"
            />
            <nav
              id={NAV_ID}
              aria-label={ui.nav.label}
              data-open={open || undefined}
              className="menu-sheet"
            >
              <ul className="flex max-lg:flex-col max-lg:px-4 max-lg:py-2 lg:gap-1">
                {ui.nav.links.map((link) => (
                  <li key={link.id}>
                    <SectionLink id={link.id} className="nav-link">
                      {link.label}
                    </SectionLink>
                  </li>
                ))}
              </ul>
              <div className="flex flex-col gap-2 border-t border-slate-200 px-4 py-4 lg:hidden dark:border-ink-800">
                <StaticPart name="menu-cta" />
                {/* Beside the icons from 768 px; here below that, where 320 px has no room. */}
                <LanguageSwitch className="flex min-h-12 self-start px-3 md:hidden" />
              </div>
            </nav>
            <div className="header-actions">
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
              <ShareMenu
                siteUrl={site.siteUrl}
                placement="header"
                variant="icon"
                className="size-11"
              />
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
