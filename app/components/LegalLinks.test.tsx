// @vitest-environment happy-dom
import { json } from "@remix-run/node";
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { LegalLinks } from "~/components/LegalLinks";
import { thankYou as arThankYou } from "~/content/ar/conversion";
import { thankYou } from "~/content/conversion";
import type { Locale } from "~/shared/locale";

afterEach(cleanup);

/** The links inside a page whose root data says its language, as the thank-you page has it. */
function renderIn(locale: Locale) {
  const copy = locale === "ar" ? arThankYou.legal : thankYou.legal;
  const Stub = createRemixStub([
    {
      id: "root",
      path: "/",
      loader: () => json({ locale }),
      Component: () => <LegalLinks copy={copy} />,
    },
  ]);
  render(<Stub />);
  return copy;
}

describe("LegalLinks", () => {
  it.each([
    ["en", ""],
    ["ar", "/ar"],
  ] as const)(
    "links the notice and the terms in the page's language (%s)",
    async (locale, prefix) => {
      const copy = renderIn(locale);
      const nav = await screen.findByRole("navigation", { name: copy.label });
      const links = [...nav.querySelectorAll("a")].map((a) => [
        a.textContent,
        a.getAttribute("href"),
      ]);
      expect(links).toEqual([
        [copy.privacy, `${prefix}/privacy`],
        [copy.terms, `${prefix}/terms`],
      ]);
    },
  );
});
