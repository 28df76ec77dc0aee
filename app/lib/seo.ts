import type { MetaDescriptor } from "@remix-run/node";
import type { Graph, Thing, WithContext } from "schema-dts";
import { brand } from "~/content/brand";
import { headDefaults, type PageCopy } from "~/content/heads";
import { type Platform, wordingFor } from "~/lib/platform";

/** The spec's page-head settings (§3), as one route states them. */
export type PageHead = PageCopy & {
  /** The page's path without a query string: the canonical and og:url are built from it. */
  path: string;
  ogImage?: { path: string; width: number; height: number; alt: string; type: string };
  ogType?: "website" | "article";
  twitterCard?: "summary" | "summary_large_image";
  structuredData?: WithContext<Thing> | Graph;
  /** Pages that must never appear in search results: /thank-you, the not-found page. */
  noindex?: boolean;
};

/** What the head needs from the request: where the site lives and who is asking. */
export type HeadContext = { siteUrl: string; platform: Platform };

export function absoluteUrl(siteUrl: string, path: string): string {
  return `${siteUrl}${path === "/" ? "/" : path}`;
}

export function fullTitle(title: string): string {
  return title.includes(brand.name) ? title : `${title} · ${brand.name}`;
}

/**
 * The one place a route's head is made. A route's `meta` replaces its parents', so every route
 * calls this and gets the shared tags too.
 */
export function pageMeta(head: PageHead, context: HeadContext): MetaDescriptor[] {
  const title = fullTitle(head.title);
  const description = wordingFor(head.description, context.platform);
  const url = absoluteUrl(context.siteUrl, head.path);
  const image = head.ogImage ?? headDefaults.ogImage;
  const imageUrl = absoluteUrl(context.siteUrl, image.path);
  const author = head.author ?? headDefaults.author;
  const keywords = [...(head.keywords ?? []), ...headDefaults.keywords];

  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { name: "keywords", content: keywords.join(", ") },
    { name: "author", content: author },
    { name: "robots", content: head.noindex ? "noindex, follow" : "index, follow" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: head.ogType ?? "website" },
    { property: "og:url", content: url },
    { property: "og:site_name", content: headDefaults.siteName },
    { property: "og:locale", content: headDefaults.ogLocale },
    { property: "og:image", content: imageUrl },
    { property: "og:image:type", content: image.type },
    { property: "og:image:width", content: String(image.width) },
    { property: "og:image:height", content: String(image.height) },
    { property: "og:image:alt", content: image.alt },
    { name: "twitter:card", content: head.twitterCard ?? headDefaults.twitterCard },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: imageUrl },
    { name: "twitter:image:alt", content: image.alt },
  ];
  // A page kept out of search results names no canonical address of its own.
  if (!head.noindex) tags.push({ tagName: "link", rel: "canonical", href: url });
  if (head.datePublished)
    tags.push({ property: "article:published_time", content: head.datePublished });
  if (head.dateModified)
    tags.push({ property: "article:modified_time", content: head.dateModified });
  if (head.author) tags.push({ property: "article:author", content: head.author });
  // Remix escapes <, > and & in JSON-LD, so no value can close the script element.
  if (head.structuredData) tags.push({ "script:ld+json": head.structuredData });
  return tags;
}
