/** Remembers, for a year, that this visitor needs no language suggestion (lib/language-hint.server.ts). */
export function rememberLanguageChoice(doc: Pick<Document, "cookie"> = document): void {
  doc.cookie = "darb_lang_hint=off; Max-Age=31536000; Path=/; SameSite=Lax";
}
