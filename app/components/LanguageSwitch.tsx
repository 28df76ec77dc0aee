import { REMEMBERS_LANGUAGE } from "~/analytics/link-clicks";
import { Icon } from "~/components/Icon";
import { useLanguageHref } from "~/hooks/use-language-href";
import { useOtherLanguage } from "~/hooks/use-site";
import { LOCALE_INFO } from "~/shared/locale";

/**
 * A link to this page in the other language, named in that language. A full page load: the
 * document's language and direction change with it. The markup keeps the URL's campaign
 * (hooks/use-language-href.ts); the click listener adds the page's query and hash.
 */
export function LanguageSwitch({
  className = "inline-flex",
}: {
  /** Says how it displays ("inline-flex", "hidden md:inline-flex"…) and anything else. */
  className?: string;
}) {
  const other = useOtherLanguage();
  const href = useLanguageHref(other.locale);
  const info = LOCALE_INFO[other.locale];
  return (
    <a
      href={href}
      hrefLang={info.lang}
      title={other.offer.switchLabel}
      {...{ [REMEMBERS_LANGUAGE]: "" }}
      className={`language-switch ${className}`}
    >
      <Icon name="languages" className="size-5" />
      {/* The name in its own language and direction; the icon stays on the page's side. */}
      <span lang={info.lang} dir={info.dir}>
        {other.offer.name}
      </span>
    </a>
  );
}
