import type { Page } from "@playwright/test";

type Seen = { document: string; navigations: string[] };

/**
 * For each document the page loads from now on: its URL, and every other document it started
 * to load in its place (history changes within it left out), as the Navigation API's `navigate`
 * event says so: inside the very call that navigates (a link's click, location.assign), where
 * the request and the page's new URL only follow a moment later. A test that proves no navigation
 * happened reads this right after the moment one would have: the same document, nothing new
 * started. A document that has gone answers with another `document`, or not at all.
 */
export async function watchNavigations(page: Page): Promise<() => Promise<Seen>> {
  await page.addInitScript(() => {
    const seen: Seen = { document: document.URL, navigations: [] };
    Object.assign(window, { __e2eNavigations: seen });
    const { navigation } = window as unknown as { navigation: EventTarget };
    navigation.addEventListener("navigate", (event) => {
      const { destination } = event as Event & {
        destination: { url: string; sameDocument: boolean };
      };
      if (!destination.sameDocument) seen.navigations.push(destination.url);
    });
  });
  return () =>
    page.evaluate(() => {
      const { __e2eNavigations: seen } = window as unknown as { __e2eNavigations: Seen };
      return { document: seen.document, navigations: [...seen.navigations] };
    });
}

/**
 * The body of the next document whose URL matches `pattern`, read as it arrives: a page that
 * moves on at once (/thank-you without JavaScript) has gone before `response.text()` could ask
 * the browser for it. The request goes to the server as usual; only the reading is ours.
 */
export async function answerOf(page: Page, pattern: RegExp): Promise<() => Promise<string>> {
  let resolve: (body: string) => void = () => {};
  const body = new Promise<string>((done) => {
    resolve = done;
  });
  await page.route(pattern, async (route) => {
    if (!route.request().isNavigationRequest()) return route.fallback();
    const response = await route.fetch();
    resolve(await response.text());
    await route.fulfill({ response });
  });
  return () => body;
}
