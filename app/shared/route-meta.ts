import type { MetaDescriptor, MetaFunction } from "@remix-run/node";

/**
 * The head tags the server rendered, read back from the document: its hydration data leaves
 * them out (document/handoff.server.ts), and hydration must render what is there. They run from
 * the <title> through the meta and link tags that follow it (pageMeta's shape, pages/seo.ts).
 */
function headInDocument(): MetaDescriptor[] {
  const title = typeof document === "undefined" ? null : document.head.querySelector("title");
  if (!title) return [];
  const head: MetaDescriptor[] = [{ title: title.textContent ?? "" }];
  for (let tag = title.nextElementSibling; tag; tag = tag.nextElementSibling) {
    const content = tag.getAttribute("content") ?? "";
    const name = tag.getAttribute("name");
    const property = tag.getAttribute("property");
    const rel = tag.getAttribute("rel");
    if (tag.tagName === "META" && name) head.push({ name, content });
    else if (tag.tagName === "META" && property) head.push({ property, content });
    else if (tag.tagName === "LINK" && (rel === "canonical" || rel === "alternate")) {
      const hrefLang = tag.getAttribute("hreflang");
      const href = tag.getAttribute("href") ?? "";
      head.push(
        hrefLang ? { tagName: "link", rel, hrefLang, href } : { tagName: "link", rel, href },
      );
    } else break;
  }
  return head;
}

/**
 * Every page route's `meta`: the head its loader built on the server (pages/head.server.ts),
 * or, when hydrating the document the server sent, the same tags read from its <head>.
 */
export const metaFromLoader: MetaFunction = ({ data }) =>
  (data as { head?: MetaDescriptor[] } | undefined)?.head ?? headInDocument();
