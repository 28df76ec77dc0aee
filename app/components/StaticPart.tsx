import { useContext } from "react";
import {
  PART_ATTRIBUTE,
  partsIn,
  type StaticPartName,
  StaticPartsContext,
} from "~/lib/static-parts";

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
 * Before a client-side navigation renders a page, fetches the parts it needs that this tab has
 * not seen (say, the landing page's sections after arriving on /share). The page's own URL
 * answers with them: it is the same render, from the server's cache.
 */
export async function loadStaticParts(
  url: string,
  names: readonly StaticPartName[],
): Promise<void> {
  const lang = document.documentElement.lang;
  const missing = names.filter(
    (name) => !kept.has(keyOf(lang, name)) && !partsIn(document, [name])[name],
  );
  if (missing.length === 0) return;
  const response = await fetch(url, { headers: { accept: "text/html" } });
  if (!response.ok) throw new Response(null, { status: response.status });
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const found = partsIn(page, missing);
  for (const name of missing) {
    const markup = found[name];
    if (markup === undefined) throw new Error(`The page at ${url} has no part "${name}"`);
    kept.set(keyOf(page.documentElement.lang, name), markup);
  }
}

/**
 * A static part: rendered by the server's renderer, then left alone by React. The empty
 * `suppressHydrationWarning` is for React's development check, which compares the markup.
 */
export function StaticPart({ name, className }: { name: StaticPartName; className?: string }) {
  const renderers = useContext(StaticPartsContext);
  const attributes = { [PART_ATTRIBUTE]: name, className };
  if (renderers) return <div {...attributes}>{renderers[name]()}</div>;
  return (
    <div
      {...attributes}
      // Our own server's markup, as it rendered it: nothing from the visitor is in it unescaped.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
      dangerouslySetInnerHTML={{ __html: markupInBrowser(name) }}
      suppressHydrationWarning
    />
  );
}
