import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const path of ["/", "/ar"]) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36" });
  const page = await ctx.newPage();
  await page.goto("http://127.0.0.1:3991" + path);
  const r = await page.evaluate(() => {
    const h = document.querySelector("header > div");
    const w = (el) => Math.round(el.getBoundingClientRect().width);
    const links = [...document.querySelectorAll("#site-nav a")].filter(a => a.offsetParent).map(a => [a.textContent, w(a)]);
    return { logo: w(h.children[0]), nav: w(h.children[1]), tools: w(h.children[2]), links, inner: w(h) };
  });
  console.log(path, JSON.stringify(r));
  await ctx.close();
}
await browser.close();
