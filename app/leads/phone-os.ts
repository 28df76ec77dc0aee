/**
 * Which system a phone runs, read from the user agent of the tap that made a lead: the beta
 * link the automatic WhatsApp reply carries (an iPhone's or an Android's). An iPad asking for
 * the desktop site sends a Mac's user agent and reads as neither: it gets both links.
 */
export type PhoneOs = "ios" | "android";

export const PHONE_OSES: readonly PhoneOs[] = ["ios", "android"];

export function phoneOsOf(userAgent: string): PhoneOs | undefined {
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return "ios";
  // Windows Phone's agents name Android too, and no beta link fits one.
  if (/\bAndroid\b/.test(userAgent) && !/\bWindows Phone\b/.test(userAgent)) return "android";
  return undefined;
}
