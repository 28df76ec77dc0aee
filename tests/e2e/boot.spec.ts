import { expect, test } from "./fixtures";

// The boot script (app/document/boot-script.server.ts) lets the held module preloads go a few
// per task: fifteen downloads started in one task made it last 15 to 40 ms on a busy phone's
// main thread (docs/performance.md, "After the first paint"). A MutationObserver hears each
// task's changes together, at the end of that task.
test("the held preloads are let go a few per task, all of them, before the page hydrates", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const batches: number[] = [];
    (window as unknown as { preloadBatches: number[] }).preloadBatches = batches;
    new MutationObserver((records) => {
      const released = records.filter(
        (record) =>
          record.target instanceof HTMLLinkElement &&
          record.target.rel === "modulepreload" &&
          !record.target.hasAttribute("media"),
      ).length;
      if (released > 0) batches.push(released);
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ["media"] });
  });
  for (const path of ["/", "/ar/share"]) {
    await page.goto(path);
    await page.waitForFunction(() => "__remixRouter" in window);
    const { batches, preloads } = await page.evaluate(() => ({
      batches: (window as unknown as { preloadBatches: number[] }).preloadBatches,
      preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
    }));
    expect(preloads, path).toBeGreaterThan(3);
    expect(
      batches.reduce((sum, n) => sum + n, 0),
      `${path}: every preload let go`,
    ).toBe(preloads);
    expect(Math.max(...batches), `${path}: preloads let go in one task`).toBeLessThanOrEqual(3);
    expect(batches.length, path).toBe(Math.ceil(preloads / 3));
  }
});
