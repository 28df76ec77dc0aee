import type { ComponentType } from "react";

/**
 * Keys whose values are settings rather than words (ids, links, kinds, formats): a translation
 * keeps them exactly as English has them.
 */
type FixedKey =
  | "id"
  | "href"
  | "icon"
  | "ctaType"
  | "ogType"
  | "period"
  | "twitterCard"
  | "themeColor"
  | "timeZone"
  | "currency"
  | "path"
  | "type";

/**
 * The shape a translation of an English copy object must have: every string becomes "any
 * string" (the words change), while numbers, booleans, icons and list lengths stay exactly as
 * in English (the claims, prices and plans do not). A key missing from a translation, an extra
 * list item or a changed price is a compile error.
 */
export type Localized<T> = T extends string
  ? string
  : T extends number | boolean | null | undefined
    ? T
    : // biome-ignore lint/suspicious/noExplicitAny: any component props: icons pass through unchanged
      T extends ComponentType<any>
      ? T
      : T extends (...args: infer A) => infer R
        ? (...args: A) => Localized<R>
        : T extends object
          ? { readonly [K in keyof T]: K extends FixedKey ? T[K] : Localized<T[K]> }
          : T;
