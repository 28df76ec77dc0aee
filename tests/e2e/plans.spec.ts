import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The offer first (docs/decisions/021-offer-first.md): on a phone the plans stack, the
 * plan beta drivers get (Plus) first, in full and marked by words, the others condensed under it;
 * on a wide screen the price ladder, Basic | Plus | Pro, in the page's reading direction; and no
 * row on the page scrolls sideways without showing that it does.
 */
const LANGUAGES = [
  { path: "/", badge: "Free for beta drivers", rtl: false },
  { path: "/ar", badge: "مجانية لسائقي النسخة التجريبية", rtl: true },
] as const;

type Card = {
  plan: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The card's text as a screen reader meets it, in reading order. */
  text: string;
  /** Whether its feature list is shown. */
  features: boolean;
};

/** Each plan's card, in the order of the markup (the order a screen reader and Tab follow). */
function cards(page: Page): Promise<Card[]> {
  return page.locator("#plans").evaluate((plans) =>
    [...plans.querySelectorAll(":scope ul > li:has(h3)")].map((card) => {
      const { left, right, top, bottom } = card.getBoundingClientRect();
      const features = card.querySelector("ul");
      return {
        plan: card.querySelector("[data-plan-beta]")?.getAttribute("data-plan-beta") ?? "",
        left,
        right,
        top,
        bottom,
        text: (card as HTMLElement).innerText,
        features: !!features?.checkVisibility(),
      };
    }),
  );
}

async function laidOut(page: Page) {
  await page.evaluate(() => document.documentElement.setAttribute("data-render-all", ""));
  await page.locator("#plans").scrollIntoViewIfNeeded();
}

for (const language of LANGUAGES) {
  test(`${language.path}: on a phone the plans stack, Plus first, in full and marked`, async ({
    page,
    isMobile,
  }, testInfo) => {
    test.skip(!isMobile, "the phone's layout");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(language.path);
    await laidOut(page);
    const [plus, basic, pro] = await cards(page);
    expect([plus?.plan, basic?.plan, pro?.plan]).toEqual(["plus", "basic", "pro"]);
    if (!plus || !basic || !pro) return;
    // One above the other, each across the section, Plus on top.
    expect(plus.bottom).toBeLessThanOrEqual(basic.top);
    expect(basic.bottom).toBeLessThanOrEqual(pro.top);
    for (const card of [basic, pro]) {
      expect(Math.round(card.left)).toBe(Math.round(plus.left));
      expect(Math.round(card.right)).toBe(Math.round(plus.right));
    }
    // Marked in words, read with the plan's name, not by its ring's colour alone.
    const badge = page.locator("#plans").getByText(language.badge, { exact: true });
    await expect(badge).toBeVisible();
    expect(plus.text).toContain(language.badge);
    expect(basic.text + pro.text).not.toContain(language.badge);
    // Plus shows everything; the others are condensed to a row, without their feature lists.
    expect(plus.features).toBe(true);
    expect([basic.features, pro.features]).toEqual([false, false]);
    expect(basic.bottom - basic.top).toBeLessThan((plus.bottom - plus.top) / 2);
    // The first plan button a visitor reaches is Plus's.
    await expect(page.locator("#plans a").first()).toHaveAttribute("href", /[?&]plan=plus&/);

    await testInfo.attach(`plans-phone-${language.rtl ? "ar" : "en"}`, {
      body: await page.locator("#plans").screenshot(),
      contentType: "image/png",
    });
  });

  test(`${language.path}: on a wide screen the plans read Basic, Plus, Pro in the page's direction @wide`, async ({
    page,
    isMobile,
  }, testInfo) => {
    test.skip(isMobile, "the wide layout");
    await page.goto(language.path);
    await laidOut(page);
    const all = await cards(page);
    // Plus still comes first for a screen reader and the keyboard…
    expect(all.map((card) => card.plan)).toEqual(["plus", "basic", "pro"]);
    // …while the eye reads the ladder: side by side, Plus between the other two.
    const reading = [...all].sort((a, b) => (language.rtl ? b.left - a.left : a.left - b.left));
    expect(reading.map((card) => card.plan)).toEqual(["basic", "plus", "pro"]);
    for (const card of all) {
      expect(Math.round(card.top)).toBe(Math.round(all[0]?.top ?? 0));
      expect(card.features).toBe(true);
    }
    await testInfo.attach(`plans-wide-${language.rtl ? "ar" : "en"}`, {
      body: await page.locator("#plans").screenshot(),
      contentType: "image/png",
    });
  });
}

/**
 * What a row that scrolls sideways must show, found on the page as it is: each box whose content
 * is wider than it and that scrolls. Today there is none; one added later must be snapped, reachable
 * and named for the keyboard, show a part of its next item and carry a visible cue.
 */
for (const width of [320, 360, 390, 430]) {
  test(`at ${width} px, no row scrolls sideways without showing that it does`, async ({
    page,
    isMobile,
  }) => {
    test.skip(!isMobile, "phone widths");
    await page.setViewportSize({ width, height: 800 });
    for (const language of LANGUAGES) {
      await page.goto(language.path);
      await page.evaluate(() => document.documentElement.setAttribute("data-render-all", ""));
      const rows = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("body *")]
          .filter((box) => {
            const style = getComputedStyle(box);
            return /auto|scroll/.test(style.overflowX) && box.scrollWidth > box.clientWidth + 1;
          })
          .map((row) => {
            const box = row.getBoundingClientRect();
            const items = [...row.children].map((item) => item.getBoundingClientRect());
            const cue = row.parentElement?.querySelector("[data-scroll-cue]");
            return {
              row: `${row.tagName.toLowerCase()}.${row.className}`.slice(0, 60),
              snapped: getComputedStyle(row).scrollSnapType.startsWith("x"),
              reachable: row.tabIndex >= 0,
              named: !!(row.getAttribute("aria-label") || row.getAttribute("aria-labelledby")),
              // An item cut by the row's edge: the visitor sees there is more.
              partial: items.some(
                (item) =>
                  (item.left < box.right && item.right > box.right + 8) ||
                  (item.right > box.left && item.left < box.left - 8),
              ),
              cue: !!cue?.checkVisibility(),
            };
          }),
      );
      for (const row of rows) {
        expect(row, `${language.path} at ${width} px`).toMatchObject({
          snapped: true,
          reachable: true,
          named: true,
          partial: true,
          cue: true,
        });
      }
      // And the page itself never scrolls sideways.
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
    }
  });
}
