import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/** The public settings the root loader sends with every page. */
export function useSite() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  if (!data) throw new Error("useSite: the root loader's data is missing");
  return data.site;
}

/** Whose wording this request's preview uses (see lib/platform.ts). */
export function usePlatform() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  return data?.platform ?? "default";
}
