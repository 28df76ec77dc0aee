/**
 * "No language suggestion, thanks": set by the browser when the visitor dismisses the offer or
 * picks a language; read by the server (pages/language-hint.server.ts), which then stops offering.
 */
export const HINT_COOKIE = "darb_lang_hint";
export const HINT_DISMISSED = `${HINT_COOKIE}=off`;

/** Remembers the choice for a year; nothing else is in it. */
export function rememberLanguageChoice(doc: Pick<Document, "cookie"> = document): void {
  doc.cookie = `${HINT_DISMISSED}; Max-Age=31536000; Path=/; SameSite=Lax`;
}
