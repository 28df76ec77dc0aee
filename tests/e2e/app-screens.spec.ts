// The app's drawn screens as a visitor's browser shows them: SVG files in the page's language and
// colour scheme. SVG text does not wrap, so every word is checked against its card here, in a
// real browser's fonts; and screenshots of the hero and the safety section, each language and
// scheme, phone and desktop, are kept under .artifacts/screens for a person to look at.
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const SCREENS = ".artifacts/screens";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const LANGUAGES = [
  ["/", "en"],
  ["/ar", "ar"],
] as const;
const SCHEMES = ["light", "dark"] as const;

// Each test opens its own windows, so it runs once, in the phone project.
test.skip(({ isMobile }) => !isMobile, "opens its own windows");

async function open(
  browser: Browser,
  viewport: { width: number; height: number },
  colorScheme: "light" | "dark",
  deviceScaleFactor = 1,
) {
  const context = await browser.newContext({
    viewport,
    colorScheme,
    deviceScaleFactor,
    isMobile: viewport.width < 500,
    hasTouch: viewport.width < 500,
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: {
      "x-forwarded-for": `10.252.${test.info().workerIndex}.${Date.now() % 250}`,
    },
  });
  const page = await context.newPage();
  // Anything the page's or the SVG's own policy refuses would be a fault of ours.
  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") refused.push(message.text());
  });
  return { page, refused, close: () => context.close() };
}

/**
 * The URLs of the screens a landing page names, by picture: every file each one may show (the
 * hero's also its cropped drawing for narrower screens, in both schemes).
 */
async function screenUrls(page: Page, path: string) {
  await page.goto(path);
  return page.evaluate(() =>
    [...document.querySelectorAll("picture")].map((picture) => [
      ...[...picture.querySelectorAll("source")].map(
        (source) => source.getAttribute("srcset") ?? "",
      ),
      picture.querySelector("img")?.getAttribute("src") ?? "",
    ]),
  );
}

/**
 * The mean brightness (0-255) of the image's lower part, 80 of its units over its foot's: the
 * drive's sheet (whole or cropped), the report's cards.
 */
function lowerBrightness(page: Page, selector: string) {
  return page.locator(selector).evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement("canvas");
    canvas.width = 288;
    canvas.height = Math.round((288 * img.naturalHeight) / img.naturalWidth);
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no canvas");
    context.drawImage(img, 0, 0, canvas.width, canvas.height);
    const { data } = context.getImageData(30, canvas.height - 104, 228, 80);
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) {
      sum += ((data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0)) / 3;
    }
    return sum / (data.length / 4);
  });
}

const loaded = (page: Page, selector: string) =>
  expect
    .poll(() =>
      page
        .locator(selector)
        .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)),
    )
    .toBeGreaterThan(0);

for (const [path, locale] of LANGUAGES) {
  test(`${path}: every word of each screen stays inside its card, and no two overlap`, async ({
    browser,
  }) => {
    const { page, refused, close } = await open(browser, PHONE, "light");
    const pictures = await screenUrls(page, path);
    expect(pictures.map((files) => files.length)).toEqual([4, 2]);
    for (const url of pictures.flat()) {
      // Opened on its own, the SVG is a document under the site's `default-src 'none'`.
      await page.goto(url);
      const faults = await page.evaluate(() => {
        type Box = { left: number; top: number; right: number; bottom: number };
        // In the drawing's own units, wherever the browser put the document.
        const root = document.documentElement.getBoundingClientRect();
        const scale = root.width / 288;
        const boxOf = (element: Element): Box => {
          const { left, top, right, bottom } = element.getBoundingClientRect();
          return {
            left: (left - root.left) / scale,
            top: (top - root.top) / scale,
            right: (right - root.left) / scale,
            bottom: (bottom - root.top) / scale,
          };
        };
        const inside = (inner: Box, outer: Box, margin: number) =>
          inner.left >= outer.left + margin &&
          inner.right <= outer.right - margin &&
          inner.top >= outer.top - 1 &&
          inner.bottom <= outer.bottom + 1;
        const overlap = (a: Box, b: Box) =>
          a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        // Cards: every drawn rectangle but the clip path's, smallest first.
        const cards = [...document.querySelectorAll("rect")]
          .filter((rect) => !rect.closest("clipPath"))
          .map(boxOf)
          .sort(
            (a, b) =>
              (a.right - a.left) * (a.bottom - a.top) - (b.right - b.left) * (b.bottom - b.top),
          );
        // The screen inside the phone's edge, however tall the drawing (the hero's is cropped).
        const height = (document.documentElement as unknown as SVGSVGElement).viewBox.baseVal
          .height;
        const screen: Box = { left: 6, top: 6, right: 282, bottom: height - 6 };
        const words = [...document.querySelectorAll("text")].map((text) => ({
          text: text.textContent ?? "",
          // Glyphs, not the line box: the ink of what is written.
          box: boxOf(text),
          // Where it starts, in the drawing's units (the road's name is turned with the map).
          anchor: text.getStartPositionOfChar(0).matrixTransform(text.getCTM() ?? undefined),
        }));
        const found: string[] = [];
        for (const word of words) {
          const { x, y } = word.anchor;
          // A word's card is the smallest one around where it starts (the map's for the road).
          const card =
            cards.find((c) => x >= c.left && x <= c.right && y >= c.top && y <= c.bottom) ?? screen;
          if (!inside(word.box, card, 2) || !inside(word.box, screen, 0)) {
            found.push(
              `"${word.text}" ${JSON.stringify(word.box)} outside ${JSON.stringify(card)}`,
            );
          }
        }
        for (const [i, a] of words.entries()) {
          for (const b of words.slice(i + 1)) {
            if (overlap(a.box, b.box)) found.push(`"${a.text}" overlaps "${b.text}"`);
          }
        }
        return { found, words: words.length };
      });
      expect(faults.words, url).toBeGreaterThan(8);
      expect(faults.found, url).toEqual([]);
    }
    expect(refused).toEqual([]);
    await close();
  });

  for (const colorScheme of SCHEMES) {
    test(`${path} ${colorScheme}: the screens are this scheme's files, drawn in its colours`, async ({
      browser,
    }) => {
      const { page, refused, close } = await open(browser, PHONE, colorScheme);
      const fetched: string[] = [];
      page.on("request", (request) => fetched.push(new URL(request.url()).pathname));
      await page.goto(path);
      await loaded(page, "#hero picture img");
      const hero = await page.locator("#hero picture img").evaluate((img: HTMLImageElement) => ({
        src: img.currentSrc,
        width: img.getBoundingClientRect().width,
        height: img.getBoundingClientRect().height,
      }));
      // On a phone the hero's screen is cropped to its cards.
      expect(hero.src).toContain(`/app-screens/drive-cropped-${locale}-${colorScheme}.`);
      expect(hero.height / hero.width).toBeCloseTo(324 / 288, 1);
      // Dark files are dark, light files light, as the page around them.
      const brightness = await lowerBrightness(page, "#hero picture img");
      if (colorScheme === "dark") expect(brightness).toBeLessThan(60);
      else expect(brightness).toBeGreaterThan(190);
      // One file per screen: the other scheme's is never fetched, the section's only when near.
      expect(fetched.filter((p) => p.startsWith("/app-screens/"))).toEqual([
        new URL(hero.src).pathname,
      ]);

      await page.locator("#safety-results").scrollIntoViewIfNeeded();
      await loaded(page, "#safety-results picture img");
      const report = await page
        .locator("#safety-results picture img")
        .evaluate((img: HTMLImageElement) => img.currentSrc);
      expect(report).toContain(`/app-screens/report-${locale}-${colorScheme}.`);
      expect(fetched.filter((p) => p.startsWith("/app-screens/"))).toHaveLength(2);
      expect(refused).toEqual([]);
      await close();
    });
  }

  test(`${path}: the hero's screen holds its box before its file arrives`, async ({ browser }) => {
    const { page, close } = await open(browser, PHONE, "light");
    await page.route("**/app-screens/**", (route) => route.abort());
    await page.goto(path);
    // The cropped phone's box, beside the countdown: its <source> gives its 288 by 324.
    const box = await page.locator("#hero picture img").boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(200);
    expect(box?.height).toBeCloseTo(((box?.width ?? 0) * 324) / 288, 0);
    await close();
  });
}

// One test per device and language, so the two workers share them (one test of all of them
// was the longest in the run).
for (const [device, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  for (const [path, locale] of LANGUAGES) {
    test(`screenshots of the hero and the safety section: ${device}, ${locale}, both schemes`, async ({
      browser,
    }) => {
      mkdirSync(SCREENS, { recursive: true });
      for (const colorScheme of SCHEMES) {
        const { page, close } = await open(browser, viewport, colorScheme, 2);
        await page.goto(path);
        await loaded(page, "#hero picture img");
        const name = `${SCREENS}/app-screen-${device}-${locale}-${colorScheme}`;
        await page.screenshot({ path: `${name}-hero.png` });
        const section = page.locator("#safety-results");
        await section.scrollIntoViewIfNeeded();
        await loaded(page, "#safety-results picture img");
        await section.screenshot({ path: `${name}-safety.png` });
        await close();
      }
    });
  }
}

test("screenshots of each Arabic drawing at three device pixels to the CSS pixel", async ({
  browser,
}) => {
  mkdirSync(SCREENS, { recursive: true });
  // As on most phones: each drawing whole, sharp.
  const { page, close } = await open(browser, PHONE, "light", 3);
  const pictures = await screenUrls(page, "/ar");
  const lights = pictures.flat().filter((url) => url.includes("-light."));
  for (const [index, light] of lights.entries()) {
    await page.goto(light);
    await page.locator("svg").screenshot({ path: `${SCREENS}/app-screen-3x-ar-${index + 1}.png` });
  }
  await close();
});
