import { useContext, useState } from "react";
import {
  PART_ATTRIBUTE,
  partsIn,
  type StaticPartName,
  StaticPartsContext,
} from "~/components/static-parts";

/** Markup of the parts this tab has shown, by language and name, for client-side navigations. */
const kept = new Map<string, string>();
const keyOf = (lang: string, name: StaticPartName) => `${lang}:${name}`;

/** The part as the server sent it: still on the page while hydrating, else kept from before. */
function markupInBrowser(name: StaticPartName): string {
  const key = keyOf(document.documentElement.lang, name);
  const onPage = partsIn(document, [name])[name];
  if (onPage !== undefined) kept.set(key, onPage);
  return kept.get(key) ?? "";
}

/**
 * Before a client-side navigation renders a page: if this tab has not shown all the parts that
 * page needs (say, the landing page's sections after arriving on /share), the page is loaded
 * whole instead, from the server's cache. The navigation waits for that load.
 */
export async function requireStaticParts(
  request: Request,
  names: readonly StaticPartName[],
): Promise<void> {
  const lang = document.documentElement.lang;
  const known = (name: StaticPartName) =>
    kept.has(keyOf(lang, name)) || document.querySelector(`[${PART_ATTRIBUTE}="${name}"]`) !== null;
  if (names.every(known)) return;
  window.location.assign(request.url);
  await new Promise(() => {});
}

/**
 * A static part: rendered by the server's renderer, then left alone by React. The empty
 * `suppressHydrationWarning` is for React's development check, which compares the markup.
 */
export function StaticPart({ name, className }: { name: StaticPartName; className?: string }) {
  const renderers = useContext(StaticPartsContext);
  const attributes = { [PART_ATTRIBUTE]: name, className };
  if (renderers) return <div {...attributes}>{renderers[name]()}</div>;
  return <BrowserPart name={name} attributes={attributes} />;
}

/**
 * The markup is read once, when the part mounts: read again on a later render, it would carry
 * what the visitor changed since (an opened FAQ answer, a corrected link) and React would reset
 * the whole part to it.
 */
function BrowserPart({ name, attributes }: { name: StaticPartName; attributes: object }) {
  const [markup] = useState(() => markupInBrowser(name));
  return (
    <div
      {...attributes}
      // Our own server's markup, as it rendered it: nothing from the visitor is in it unescaped.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
      dangerouslySetInnerHTML={{ __html: markup }}
      suppressHydrationWarning
    />
  );
}
