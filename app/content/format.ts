import { brand } from "~/content/brand";

/** Prices as Dubai reads them: "AED 149", whole dirhams. */
export function formatPrice(
  amount: number,
  currency: string,
  locale: string = brand.locale,
): string {
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    // "AED 149" in English; "149 د.إ." in Arabic, as Emirati shops print it.
    currencyDisplay: locale.startsWith("ar") ? "symbol" : "code",
    maximumFractionDigits: 0,
  }).format(amount);
}

export function formatDecimal(value: number, locale: string = brand.locale): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(value);
}

/** A day of the year in Dubai's calendar, e.g. "15 June". */
export function formatDay(date: Date, locale: string = brand.locale): string {
  return new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "long",
    timeZone: brand.timeZone,
  }).format(date);
}

/** A date in Dubai's calendar with its year, e.g. "15 June 2027" ("15 يونيو 2027"). */
export function formatDate(date: Date, locale: string = brand.locale): string {
  return new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: brand.timeZone,
  }).format(date);
}

/**
 * When the beta closes, on Dubai's calendar and clock: "30 November" at midnight (what a date
 * alone in BETA_CLOSES_AT means), "30 November at 6:30 PM" otherwise.
 */
export function formatClosing(date: Date, locale: string = brand.locale): string {
  const time = new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZone: brand.timeZone,
  }).format(date);
  if (time === "00:00:00") return formatDay(date, locale);
  return new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "long",
    hour: "numeric",
    minute: "2-digit",
    timeZone: brand.timeZone,
  }).format(date);
}
