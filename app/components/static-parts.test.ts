// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { partsIn } from "~/components/static-parts";

describe("partsIn", () => {
  it("reads each part's markup from a document, by name, and leaves out what is missing", () => {
    const page = new DOMParser().parseFromString(
      `<main><div data-static-part="landing-body"><section id="faq"><h2>FAQ</h2></section></div>
       <div data-static-part="footer"><footer>© Darb</footer></div></main>`,
      "text/html",
    );
    expect(partsIn(page, ["landing-body", "footer", "hero-intro"])).toEqual({
      "landing-body": '<section id="faq"><h2>FAQ</h2></section>',
      footer: "<footer>© Darb</footer>",
    });
  });
});
