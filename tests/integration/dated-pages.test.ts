// The download note names the next 15 June with its year, and the footer its year; the
// render cache must never serve a page past the moment those change (Dubai's midnight), although
// it keeps pages 5 minutes. The production server in this process, over HTTP, with the process's
// clock set just before those midnights (only Date is faked: timers and sockets run as ever).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directFetch, startBuiltServer } from "../support/server";
import { ANDROID_CHROME } from "../support/user-agents";

/** An instant given as Dubai's wall clock (UTC+4, no daylight saving). */
const dubai = (wallClock: string) => Date.parse(`${wallClock}+04:00`);

let site: Awaited<ReturnType<typeof startBuiltServer>>;

beforeAll(async () => {
  // Before the server starts, so every clock it reads (the render cache's too) is this one.
  vi.useFakeTimers({ toFake: ["Date"], now: dubai("2027-06-14T23:59:00") });
  site = await startBuiltServer({ SITE_URL: "https://darb.example", RENDER_CACHE: "on" });
}, 60_000);

afterAll(async () => {
  await site?.close();
  vi.useRealTimers();
});

/** The download note's date and the footer's year, as a visitor's phone gets the page. */
async function dated(path: string) {
  const response = await directFetch(`${site.origin}${path}`, {
    headers: { "user-agent": ANDROID_CHROME },
  });
  expect(response.status).toBe(200);
  const html = await response.text();
  return {
    deadline: /<time dateTime="(\d{4}-06-15)">([^<]+)<\/time>/i.exec(html)?.slice(1, 3),
    year: /© (?:<!-- -->)?(\d{4})/.exec(html)?.[1],
  };
}

describe("a page's dates, from the render cache", () => {
  it("the note turns to next year's 15 June at midnight on 15 June, in Dubai", async () => {
    vi.setSystemTime(dubai("2027-06-14T23:59:00"));
    expect((await dated("/")).deadline).toEqual(["2027-06-15", "15 June 2027"]);
    expect((await dated("/ar")).deadline).toEqual(["2027-06-15", "15 يونيو 2027"]);
    // Kept: the same page a minute on, still 14 June.
    vi.setSystemTime(dubai("2027-06-14T23:59:59"));
    expect((await dated("/")).deadline).toEqual(["2027-06-15", "15 June 2027"]);
    // Two seconds later it is 15 June: "before 15 June 2027" can no longer be met.
    vi.setSystemTime(dubai("2027-06-15T00:00:01"));
    expect((await dated("/")).deadline).toEqual(["2028-06-15", "15 June 2028"]);
    expect((await dated("/ar")).deadline).toEqual(["2028-06-15", "15 يونيو 2028"]);
  });

  it("the footer's year turns at midnight on 1 January, in Dubai; the note's stays", async () => {
    vi.setSystemTime(dubai("2027-12-31T23:58:00"));
    expect(await dated("/")).toEqual({ deadline: ["2028-06-15", "15 June 2028"], year: "2027" });
    vi.setSystemTime(dubai("2028-01-01T00:00:00"));
    expect(await dated("/")).toEqual({ deadline: ["2028-06-15", "15 June 2028"], year: "2028" });
  });
});
