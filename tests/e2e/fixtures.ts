import { test as base, expect } from "@playwright/test";

/**
 * Every test watches the page for console errors, failed requests and error answers; a test
 * that expects one (the 404 document) says so with `allowStatus`, or `allowConsole` for a
 * message the browser itself logs (Chromium refusing a mailto: that no gesture started).
 */
type Watch = {
  problems: string[];
  allowStatus: (path: string, status: number) => void;
  allowConsole: (message: RegExp) => void;
};

let visitors = 0;

export const test = base.extend<{ watch: Watch }>({
  // A visitor address of its own per test, so rate limits and lead de-duplication never join
  // two tests together.
  extraHTTPHeaders: async ({ browserName: _ }, use, testInfo) => {
    const n = ++visitors;
    await use({
      "x-forwarded-for": `10.${testInfo.workerIndex % 250}.${Math.floor(n / 250)}.${n % 250}`,
    });
  },
  watch: [
    async ({ page, javaScriptEnabled }, use) => {
      const problems: string[] = [];
      const allowed = new Set<string>();
      const allowedConsole: RegExp[] = [];
      // Anything the Content-Security-Policy refuses is a fault of ours: report it as an error.
      await page.exposeFunction("__reportCspViolation", (detail: string) =>
        problems.push(`CSP violation: ${detail}`),
      );
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          const report = (window as unknown as { __reportCspViolation: (d: string) => void })
            .__reportCspViolation;
          report(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
        });
      });
      page.on("console", (message) => {
        if (message.type() !== "error" && message.type() !== "warning") return;
        // Chrome also logs the answer the test expects (the 404 document) as a console error.
        const status = /status of (\d{3})/.exec(message.text())?.[1];
        const source = message.location().url;
        if (status && source && allowed.has(`${new URL(source).pathname} ${status}`)) return;
        if (allowedConsole.some((pattern) => pattern.test(message.text()))) return;
        problems.push(`console.${message.type()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("requestfailed", (request) => {
        const reason = request.failure()?.errorText ?? "";
        // A navigation away aborts the requests still running; that is not a fault.
        if (reason === "net::ERR_ABORTED") return;
        // With JavaScript off, Chromium refuses the page's scripts this way.
        if (!javaScriptEnabled && reason === "csp") return;
        problems.push(`request failed: ${request.url()} ${reason}`);
      });
      page.on("response", (response) => {
        const url = new URL(response.url());
        if (response.status() >= 400 && !allowed.has(`${url.pathname} ${response.status()}`)) {
          problems.push(`HTTP ${response.status()}: ${response.url()}`);
        }
      });
      await use({
        problems,
        allowStatus: (path, status) => allowed.add(`${path} ${status}`),
        allowConsole: (message) => allowedConsole.push(message),
      });
      expect(problems, "console errors, failed requests or error answers").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
