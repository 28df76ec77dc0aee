// A legal page's words as a visitor reads them (app/pages/legal-text.server.ts's document, with
// code names, quotes, values and links' words written out), for the privacy notice's and the
// terms' tests.
import type { LegalDocument, RichText } from "~/pages/legal-text.server";

const plain = (text: RichText) =>
  text
    .map((part) => {
      if (typeof part === "string") return part;
      if ("code" in part) return part.code;
      if ("quote" in part) return part.quote;
      if ("value" in part) return part.value;
      return part.text;
    })
    .join("");

/** The document's headings and blocks, one per line: only section `id`'s, when given. */
export function legalText(document: LegalDocument, id?: string): string {
  return document.sections
    .filter((section) => id === undefined || section.id === id)
    .flatMap((section) => [
      section.heading,
      ...section.blocks.flatMap((block) =>
        ("paragraph" in block ? [block.paragraph] : block.list).map(plain),
      ),
    ])
    .join("\n");
}
