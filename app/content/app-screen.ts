/**
 * The words on the app screens drawn for the page (components/app-screen/, served as SVG images
 * in each language): a live drive and a weekly report. The figures are the site's own claims
 * (score 92 live, 71 to 88 over three weeks, harsh braking 9 to 3, phone pick-ups 4 to 0, up to
 * 25% cashback); numbers stay numbers so that a translation cannot change them. The cashback
 * amount is an example, and `label` says so.
 */
export const appScreen = {
  /** On the road: the hero's screen. */
  drive: {
    /** The whole screen in words, for a screen reader (the drawing itself is hidden). */
    label:
      "Darb on Sheikh Zayed Road. Speed camera in 400\u00a0m: limit 100 km/h, you're at\u00a0112. Drive score 92. Downtown in 18 minutes. AED 86 cashback this year, as an example.",
    alert: "Speed camera in 400\u00a0m",
    alertNote: "Limit 100 km/h · you're at\u00a0112",
    limit: 100,
    speed: 112,
    unit: "km/h",
    road: "Sheikh Zayed Rd",
    score: 92,
    scoreLabel: "Drive score",
    eta: "18 min",
    destination: "Downtown",
    cashback: "AED 86 cashback this year",
  },
  /** After three weeks: the weekly report. */
  report: {
    label:
      "Darb's weekly report, week 3 of coaching: drive score up from 71 to 88; harsh braking down from 9 to 3 per 100 km; phone pick-ups from 4 to 0; tip: leave a 3-second gap on Sheikh Zayed Road; estimated cashback of up to 25%, for example AED 86 this year.",
    title: "Weekly report",
    week: "Week 3 of coaching",
    scoreLabel: "Drive score",
    /** The score in weeks 1 and 3; the chart's middle bar is drawn halfway, without a figure. */
    scores: [71, 88],
    weeks: ["Week 1", "Week 2", "Week 3"],
    metrics: [
      { label: "Harsh braking", before: 9, after: 3, note: "per 100 km" },
      { label: "Phone pick-ups", before: 4, after: 0, note: "per drive" },
    ],
    /** In two lines, as the screen draws it: an SVG's text does not wrap. */
    tip: ["Tip: leave a 3-second gap", "on Sheikh Zayed Rd"],
    cashback: "Cashback estimate",
    cashbackValue: "AED 86 this year",
    upTo: "up to 25%",
  },
} as const;
