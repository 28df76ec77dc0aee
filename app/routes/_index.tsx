import type { MetaFunction } from "@remix-run/node";
import { Hero } from "~/components/Hero";
import { landing } from "~/content/landing";
import { pageMeta } from "~/lib/seo";

export const meta: MetaFunction = () => pageMeta(landing.head);

export default function Index() {
  return <Hero />;
}
