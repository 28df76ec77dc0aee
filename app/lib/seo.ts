import type { MetaDescriptor } from "@remix-run/node";
import { brand } from "~/content/brand";

export type PageHead = {
  title: string;
  description: string;
  /** Pages that must never appear in search results: /thank-you, the not-found page. */
  noindex?: boolean;
};

/**
 * The one place a route's head is made. A route's `meta` replaces its parents', so every route
 * calls this and gets the shared tags too.
 */
export function pageMeta(head: PageHead): MetaDescriptor[] {
  const title = head.title === brand.name ? brand.name : `${head.title} · ${brand.name}`;
  const tags: MetaDescriptor[] = [{ title }, { name: "description", content: head.description }];
  if (head.noindex) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
}
