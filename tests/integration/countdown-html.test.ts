// The countdown as the server sends it: real numbers, not "--", before any script
// runs and with JavaScript off; with BETA_CLOSES_AT set, the close written out and, in Arabic,
// each unit in its number's plural form. Without it, the script that keeps this
// browser's start follows the cells, and start-up warns; with it, every response carries the
// time left at its own request, cached or not; the download note names its year. Real server
// processes, one per setting.
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildServer, startChildServer } from "../support/child-server";
import { ANDROID_CHROME } from "../support/user-agents";

const DAY = 86_400_000;
const DUBAI = 4 * 3_600_000;
const MONTHS_EN =
  "January February March April May June July August September October November December".split(
    " ",
  );
const MONTHS_AR = [
  "يناير",
  "فبراير",
  "مارس",
  "أبريل",
  "مايو",
  "يونيو",
  "يوليو",
  "أغسطس",
  "سبتمبر",
  "أكتوبر",
  "نوفمبر",
  "ديسمبر",
];

/** Midnight in Dubai (UTC+4, no daylight saving) twelve days from today there: "2026-12-04". */
const closingDay = new Date(Date.now() + DUBAI + 12 * DAY);
const BETA_CLOSES_AT = closingDay.toISOString().slice(0, 10);
const writtenEn = `${closingDay.getUTCDate()} ${MONTHS_EN[closingDay.getUTCMonth()]}`;
const writtenAr = `${closingDay.getUTCDate()} ${MONTHS_AR[closingDay.getUTCMonth()]}`;

let fromLoad: ChildServer;
let fixed: ChildServer;
let closed: ChildServer;
/** Three days ago, at 18:30 in Dubai. */
const CLOSED_AT = new Date(Math.floor(Date.now() / DAY) * DAY - 3 * DAY + 14.5 * 3_600_000);
const window = new Window();

beforeAll(async () => {
  [fromLoad, fixed, closed] = await Promise.all([
    startChildServer({ RENDER_CACHE: "on" }),
    startChildServer({ RENDER_CACHE: "on", BETA_CLOSES_AT }),
    startChildServer({ BETA_CLOSES_AT: CLOSED_AT.toISOString() }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([fromLoad?.kill(), fixed?.kill(), closed?.kill()]);
  await window.happyDOM.close();
});

const UNITS = ["days", "hours", "mins", "secs"] as const;

async function countdownOf(server: ChildServer, path: string) {
  const response = await fetch(`${server.origin}${path}`, {
    headers: { "user-agent": ANDROID_CHROME },
  });
  expect(response.status).toBe(200);
  const html = await response.text();
  const document = new window.DOMParser().parseFromString(html, "text/html");
  const hero = document.querySelector("#hero");
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  return {
    document,
    nonce,
    /** The moment the server took for the figures, from the page's own data. */
    renderedAt: Number(/"renderedAt":(\d+)/.exec(html)?.[1]),
    cells: UNITS.map((unit) => hero?.querySelector(`[data-unit="${unit}"]`)?.textContent ?? ""),
    labels: UNITS.map(
      (unit) => hero?.querySelector(`[data-unit-label="${unit}"]`)?.textContent ?? "",
    ),
    spoken: hero?.querySelector(".sr-only")?.textContent ?? "",
    text: hero?.textContent?.replace(/\s+/g, " ") ?? "",
    time: hero?.querySelector("time")?.getAttribute("datetime") ?? null,
  };
}

/** Arabic's count agreement for a cell's label, written out here rather than taken from the app. */
function arabicLabel(count: number, [one, two, few, many]: readonly string[]): string {
  if (count === 2) return two as string;
  if (count >= 3 && count <= 10) return few as string;
  if (count >= 11 && count <= 99) return many as string;
  return one as string;
}
const AR_FORMS = {
  days: ["يوم", "يومان", "أيام", "يومًا"],
  hours: ["ساعة", "ساعتان", "ساعات", "ساعة"],
  mins: ["دقيقة", "دقيقتان", "دقائق", "دقيقة"],
  secs: ["ثانية", "ثانيتان", "ثوانٍ", "ثانية"],
} as const;

describe("without BETA_CLOSES_AT: two days after this page load", () => {
  it.each([
    ["/", ["days", "hours", "mins", "secs"], "Beta closes in 2 days"],
    ["/ar", ["يومان", "ساعة", "دقيقة", "ثانية"], "يتبقّى على إغلاق النسخة التجريبية يومان"],
  ])("%s is served with 02 00 00 00, not --, rendered or cached", async (path, labels, spoken) => {
    // The first request renders; the second comes from the render cache.
    for (let request = 0; request < 2; request++) {
      const countdown = await countdownOf(fromLoad, path);
      expect(countdown.cells).toEqual(["02", "00", "00", "00"]);
      expect(countdown.labels).toEqual(labels);
      expect(countdown.spoken).toBe(spoken);
      expect(countdown.text).not.toContain("--");
      expect(countdown.time).toBeNull();
    }
  });
});

describe(`with BETA_CLOSES_AT=${BETA_CLOSES_AT} (twelve days ahead, midnight in Dubai)`, () => {
  it("/ shows the numbers left, their English units and the date written out", async () => {
    const countdown = await countdownOf(fixed, "/");
    for (const cell of countdown.cells) expect(cell).toMatch(/^\d\d$/);
    expect(["11", "12"]).toContain(countdown.cells[0]);
    const english = countdown.cells.map((cell, index) =>
      Number(cell) === 1 ? UNITS[index]?.replace(/s$/, "") : UNITS[index],
    );
    expect(countdown.labels).toEqual(english);
    expect(countdown.spoken).toMatch(/^Beta closes in 1[12] days/);
    expect(countdown.text).toContain(`Beta closes ${writtenEn}`);
    expect(countdown.time).toBe(new Date(`${BETA_CLOSES_AT}T00:00:00+04:00`).toISOString());
  });

  it("/ar labels each unit in its number's plural form and writes the date in Arabic", async () => {
    const countdown = await countdownOf(fixed, "/ar");
    for (const cell of countdown.cells) expect(cell).toMatch(/^\d\d$/);
    expect(countdown.labels[0]).toBe("يومًا");
    expect(countdown.labels).toEqual(
      UNITS.map((unit, index) => arabicLabel(Number(countdown.cells[index]), AR_FORMS[unit])),
    );
    expect(countdown.spoken).toMatch(/^يتبقّى على إغلاق النسخة التجريبية 1[12] يومًا/);
    expect(countdown.text).toContain(`تُغلق النسخة التجريبية يوم ${writtenAr}`);
    // Western digits throughout (docs/product.md, Two languages).
    expect(countdown.text).not.toMatch(/[\u0660-\u0669]/);
  });
});

describe("with BETA_CLOSES_AT in the past", () => {
  it.each([
    ["/", "The beta has closed", "Beta closed ", "at 6:30 PM"],
    ["/ar", "أُغلقت النسخة التجريبية", "أُغلقت النسخة التجريبية يوم ", "في 6:30 م"],
  ])(
    "%s shows zeros, says so, and writes the date and time it closed",
    async (path, spoken, line, time) => {
      const countdown = await countdownOf(closed, path);
      expect(countdown.cells).toEqual(["00", "00", "00", "00"]);
      expect(countdown.spoken).toBe(spoken);
      const written = path === "/" ? MONTHS_EN : MONTHS_AR;
      const date = `${CLOSED_AT.getUTCDate()} ${written[CLOSED_AT.getUTCMonth()]}`;
      expect(countdown.text.replace(/[\u200e\u200f]/g, "")).toContain(`${line}${date} ${time}`);
    },
  );
});

/** Seconds left in the cells: days, hours, mins and secs as one number. */
const secondsIn = (cells: string[]) =>
  cells
    .map(Number)
    .reduce((total, value, index) => total + value * ([86_400, 3600, 60, 1][index] ?? 0), 0);

describe("a countdown that keeps its word", () => {
  it("without BETA_CLOSES_AT, heads the page with the script that keeps this browser's start", async () => {
    for (const path of ["/", "/ar"]) {
      const { document, nonce } = await countdownOf(fromLoad, path);
      const script = [...document.querySelectorAll("head script")].find((element) =>
        element.textContent?.includes('localStorage.getItem("darb:beta-start")'),
      );
      // Before the stylesheet, so it waits for nothing, and allowed by this response's policy.
      expect(script?.nextElementSibling?.matches('link[rel="stylesheet"]')).toBe(true);
      expect(script?.getAttribute("nonce")).toBe(nonce);
    }
  });

  it("with BETA_CLOSES_AT, has no such script: every visitor counts to the same close", async () => {
    const { document } = await countdownOf(fixed, "/");
    expect(document.querySelector("[data-countdown]")).not.toBeNull();
    expect(document.documentElement.outerHTML).not.toContain("darb:beta-start");
  });

  it("with BETA_CLOSES_AT, every response carries the time left at its own request, cached or not", async () => {
    const closes = new Date(`${BETA_CLOSES_AT}T00:00:00+04:00`).getTime();
    const first = await countdownOf(fixed, "/");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const second = await countdownOf(fixed, "/");
    for (const page of [first, second]) {
      // The figures are the time left at the moment the page names, which hydration renders again.
      expect(secondsIn(page.cells)).toBe(Math.ceil((closes - page.renderedAt) / 1000));
    }
    // A second and a half later: not the first page from memory, but figures a tick or two on.
    expect(second.renderedAt - first.renderedAt).toBeGreaterThanOrEqual(1000);
    expect(secondsIn(first.cells) - secondsIn(second.cells)).toBeGreaterThanOrEqual(1);
  });

  it("warns at production start-up while BETA_CLOSES_AT is unset, and not when it is set", () => {
    const warnings = (server: ChildServer) =>
      server
        .stderr()
        .split("\n")
        .filter(
          (line) => line.includes('"type":"config_warning"') && line.includes("BETA_CLOSES_AT"),
        );
    expect(warnings(fromLoad)).toHaveLength(1);
    expect(JSON.parse(warnings(fromLoad)[0] ?? "{}").warning).toMatch(
      /^BETA_CLOSES_AT not set; each visitor's countdown runs two days from their first visit$/,
    );
    expect(warnings(fixed)).toEqual([]);
  });
});

/** The next 15 June after today in Dubai, worked out here apart from the app: "2027-06-15". */
function nextFifteenthOfJune(now = Date.now()): string {
  const dubai = new Date(now + DUBAI);
  const year = dubai.getUTCFullYear();
  const passed = dubai.getUTCMonth() > 5 || (dubai.getUTCMonth() === 5 && dubai.getUTCDate() >= 15);
  return `${passed ? year + 1 : year}-06-15`;
}

describe("the download note", () => {
  it.each([
    ["/", (year: string) => `Download before 15 June ${year} for lifetime premium features`],
    ["/ar", (year: string) => `حمّل التطبيق قبل 15 يونيو ${year} لتحتفظ بالمزايا`],
  ])("%s names the next 15 June with its year, in the page's language", async (path, note) => {
    for (const server of [fromLoad, fixed]) {
      const { document } = await countdownOf(server, path);
      const deadline = nextFifteenthOfJune();
      const time = document.querySelector(`#download time[datetime="${deadline}"]`);
      expect(time?.parentElement?.textContent).toContain(note(deadline.slice(0, 4)));
      expect(time?.textContent).not.toMatch(/[\u0660-\u0669]/);
    }
  });
});
