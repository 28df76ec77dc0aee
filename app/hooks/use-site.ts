import { useRouteLoaderData } from "@remix-run/react";
import type { UiCopy } from "~/content/ui-copy.server";
import type { loader as rootLoader } from "~/root";
import type { Locale } from "~/shared/locale";

function useRootData() {
  return useRouteLoaderData<typeof rootLoader>("root");
}

/** The public settings the root loader sends with every page. */
export function useSite() {
  const data = useRootData();
  if (!data) throw new Error("useSite: the root loader's data is missing");
  return data.site;
}

/** Whose wording this request's preview uses (see shared/platform.ts). */
export function usePlatform() {
  return useRootData()?.platform ?? "default";
}

/** The URL's campaign as a query ("?source=…" or ""), for the language links. */
export function useCampaignQuery(): string {
  return useRootData()?.campaignQuery ?? "";
}

/** The page's language (shared/locale.ts); English when the root's data is missing (an error). */
export function useLocale(): Locale {
  return useRootData()?.locale ?? "en";
}

/** The words of the interactive parts, in the page's language (content/ui-copy.server.ts). */
export function useUi(): UiCopy {
  const data = useRootData();
  if (!data) throw new Error("useUi: the root loader's data is missing");
  return data.ui as UiCopy;
}

/** The other language and the words that offer it. */
export function useOtherLanguage() {
  const data = useRootData();
  if (!data) throw new Error("useOtherLanguage: the root loader's data is missing");
  return data.other;
}

/** The same, or undefined on the error screen when the root loader itself failed. */
export function useOptionalUi(): UiCopy | undefined {
  return useRootData()?.ui as UiCopy | undefined;
}
