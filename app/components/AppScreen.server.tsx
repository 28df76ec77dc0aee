import type { Copy } from "~/content/copy.server";
import { useCopy } from "~/hooks/use-copy.server";

type ScreenCopy = Copy["appScreen"];

const MUTED = "text-slate-600 dark:text-slate-400";
const CARD = "rounded-2xl bg-white p-3 dark:bg-ink-900";

/**
 * The app on a phone, drawn rather than downloaded. It ships in every "/" document, so it stays
 * small (AppScreen.test.tsx holds each screen under 1.7 kB gzipped): one SVG per drawing, few
 * classes, colours shared through currentColor and opacity. One image for assistive technology,
 * named in the page's language, with everything inside hidden. The frame keeps the phone's
 * proportions (9:19.5) at the width `className` sets, so it takes its room before it paints.
 * Heights come from classes, not `style`: the CSP allows no inline styles.
 */
export function AppScreen({
  screen,
  className = "w-64 sm:w-72",
}: {
  screen: "drive" | "report";
  className?: string;
}) {
  const { appScreen } = useCopy();
  return (
    <div
      role="img"
      aria-label={appScreen[screen].label}
      className={`relative mx-auto aspect-[9/19.5] shrink-0 rounded-[2.6rem] bg-black shadow-2xl ring-1 ring-ink-700 ${className}`}
    >
      <div
        aria-hidden="true"
        className="absolute inset-1.5 overflow-hidden rounded-[2.2rem] bg-slate-100 text-[11px] leading-tight text-ink-950 dark:bg-ink-950 dark:text-white"
      >
        {screen === "drive" ? <Drive copy={appScreen.drive} /> : <Report copy={appScreen.report} />}
        <div className="absolute inset-x-0 top-0 grid h-10 grid-cols-[1fr_5rem_1fr] place-items-center text-[13px] font-semibold">
          9:41
          <i className="h-[22px] w-full rounded-full bg-black" />
          <svg aria-hidden="true" viewBox="0 0 44 12" stroke="currentColor" className="h-3 w-11">
            <path d="M1.5 12V9M6 12V7m4.5 5V4.5M15 12V2" strokeWidth="3" />
            <path d="M24 6h16" strokeWidth="7" />
            <rect x="21.5" y=".5" width="22" height="11" rx="3" fill="none" opacity=".4" />
          </svg>
        </div>
      </div>
    </div>
  );
}

/**
 * North on Sheikh Zayed Road, heading up, towards an interchange: the Gulf to the north-west,
 * the route in teal taking the exit ramp east, a speed camera ahead of the car. The land and
 * road surfaces follow the scheme through currentColor; edges are black at low opacity, so
 * they darken either scheme's land.
 */
function DriveMap({ road }: { road: string }) {
  const route = "M103 262V228C103 194 118 172 150 172H250";
  const ramps = "M74 90c0 36-12 60-44 60m120 0c-32 0-44-24-44-60M30 172c32 0 44 24 44 60";
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 180 390"
      fill="none"
      className="absolute w-full bg-[#eef0e9] text-white dark:bg-ink-900 dark:text-ink-800"
    >
      <path d="M0 0h84C64 44 36 70 0 80z" fill="#38bdf8" fillOpacity=".3" />
      <g transform="rotate(12 90 230)">
        <path
          d="M-80 110H260M-80 300H260M54-80V520M132-80V520"
          stroke="currentColor"
          strokeWidth="3"
        />
        <path d={ramps + route} stroke="#000" strokeOpacity=".2" strokeWidth="10" />
        <path d={ramps + route} stroke="currentColor" strokeWidth="8" />
        <path d="M-80 161H260" stroke="#000" strokeOpacity=".2" strokeWidth="24" />
        <path d="M-80 161H260" stroke="currentColor" strokeWidth="21" />
        <path d="M90-80V520" stroke="#e0a43b" strokeWidth="43" />
        <path d="M90-80V520" strokeWidth="40" className="stroke-sand-300 dark:stroke-ink-700" />
        <path
          d="M75-80V520m5 0V-80m5 0V520m10 0V-80m5 0V520m5 0V-80"
          stroke="#fff"
          strokeOpacity=".6"
          strokeDasharray="5 5"
        />
        <path d="M90-80V520" stroke="#e0a43b" strokeWidth="1.5" />
        <path d={route} stroke="#0f766e" strokeWidth="7.5" />
        <path d={route} stroke="#14b8a6" strokeWidth="5" />
        <circle cx="103" cy="212" r="5.5" fill="#dc2626" stroke="#fff" strokeWidth="1.8" />
        <circle cx="103" cy="262" r="7.5" fill="#fff" stroke="#0f766e" />
        <path d="M103 257l4 9-4-2-4 2z" fill="#0b1f33" />
        <text
          x="-236"
          y="83"
          transform="rotate(-90)"
          textAnchor="middle"
          fontSize="7"
          fontWeight="600"
          paintOrder="stroke"
          stroke="currentColor"
          strokeWidth="2.4"
          className="fill-ink-900 dark:fill-white"
        >
          {road}
        </text>
      </g>
    </svg>
  );
}

function Drive({ copy }: { copy: ScreenCopy["drive"] }) {
  return (
    <>
      <DriveMap road={copy.road} />
      <div className="absolute inset-x-2.5 top-11">
        <div className="flex items-center gap-2 rounded-2xl bg-ink-900 p-2.5 text-white dark:bg-ink-800">
          <svg
            aria-hidden="true"
            viewBox="0 0 36 36"
            className="size-8 shrink-0 rounded-lg bg-alert-600 fill-white"
          >
            <path
              d="M9 14h18v11H9zm6-3h6l1 3h-8zm3 5a3 3 0 1 0 0 7 3 3 0 1 0 0-7"
              fillRule="evenodd"
            />
          </svg>
          <p className="text-slate-300">
            <b className="block text-[13px] text-white">{copy.alert}</b>
            {copy.alertNote}
          </p>
        </div>
        <p className="mt-2 flex items-center gap-1.5 font-bold">
          <b className="grid size-11 place-items-center rounded-full border-4 border-alert-600 bg-white text-[13px] text-ink-950">
            {copy.limit}
          </b>
          <b className="rounded-full bg-alert-600 px-3 py-1.5 text-[17px] text-white">
            {copy.speed} <small className="text-[10px]">{copy.unit}</small>
          </b>
        </p>
      </div>
      <div className="absolute inset-x-0 bottom-0 rounded-t-3xl bg-white p-4 pb-6 shadow-2xl dark:bg-ink-950">
        <div className={`flex items-center ${MUTED}`}>
          <p className="flex-1 text-[12px]">
            <b className="block text-[22px] text-road-700 dark:text-road-500">{copy.eta}</b>
            {copy.destination}
          </p>
          <p className="grid justify-items-center gap-1 text-[10px]">
            <svg
              aria-hidden="true"
              viewBox="0 0 36 36"
              fill="none"
              strokeWidth="3.4"
              className="size-12"
            >
              <circle cx="18" cy="18" r="15.9" stroke="currentColor" strokeOpacity=".2" />
              <circle
                cx="18"
                cy="18"
                r="15.9"
                stroke="#14b8a6"
                strokeDasharray={`${copy.score} 100`}
                strokeLinecap="round"
                transform="rotate(-90 18 18)"
              />
              <text
                x="18"
                y="23"
                textAnchor="middle"
                fontSize="13"
                fontWeight="700"
                className="fill-ink-950 dark:fill-white"
              >
                {copy.score}
              </text>
            </svg>
            {copy.scoreLabel}
          </p>
        </div>
        <p className="mt-3 flex items-center gap-2 rounded-xl bg-sand-100 px-3 py-2 font-semibold text-ink-900 dark:bg-ink-800 dark:text-sand-300">
          <i className="size-3 rounded-full bg-sand-500" />
          {copy.cashback}
        </p>
      </div>
    </>
  );
}

/** The weeks' bars at (score − 50) × 1.6 % of the chart: 71, the halfway 79.5, and 88. */
const BARS = [
  "h-[34%] bg-slate-200 dark:bg-ink-700",
  "h-[47%] bg-slate-200 dark:bg-ink-700",
  "h-[61%] bg-road-600 dark:bg-road-500",
];

function Report({ copy }: { copy: ScreenCopy["report"] }) {
  const [first, last] = copy.scores;
  // Figures over the first and last weeks' bars only: the middle one is drawn, not claimed.
  const figures = [first, "", last];
  return (
    <div className="flex h-full flex-col gap-2.5 px-3 pt-12 pb-5">
      <p className={`px-1 ${MUTED}`}>
        {copy.title}
        <b className="block text-[18px] text-ink-950 dark:text-white">{copy.week}</b>
      </p>
      <div className={`flex flex-1 flex-col ${CARD}`}>
        <p className={`flex justify-between ${MUTED}`}>
          {copy.scoreLabel}
          <b dir="ltr" className="rounded-full bg-road-700 px-2 py-0.5 text-white">
            +{last - first}
          </b>
        </p>
        <div className="flex flex-1 items-end gap-3 text-center">
          {BARS.map((bar, week) => (
            <p
              key={bar}
              className={`flex h-full flex-1 flex-col justify-end gap-1 text-[10px] ${MUTED}`}
            >
              <b className="text-[15px] text-ink-950 dark:text-white">{figures[week]}</b>
              <i className={`rounded-lg ${bar}`} />
              {copy.weeks[week]}
            </p>
          ))}
        </div>
      </div>
      <div className={CARD}>
        {copy.metrics.map((metric) => (
          <div key={metric.label} className="flex items-center justify-between py-1 font-medium">
            <p>
              {metric.label}
              <span className={`block text-[10px] ${MUTED}`}>{metric.note}</span>
            </p>
            <p className="flex items-center gap-1 text-[20px] font-bold">
              <span className="text-slate-500 dark:text-slate-400">{metric.before}</span>
              <svg
                aria-hidden="true"
                viewBox="0 0 12 12"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                className="size-3 rtl:-scale-x-100"
              >
                <path d="M1 6h9M7 2.5 10.5 6 7 9.5" />
              </svg>
              <span className="text-road-700 dark:text-road-500">{metric.after}</span>
            </p>
          </div>
        ))}
      </div>
      <p className="flex items-center gap-2 rounded-2xl bg-sand-100 p-3 font-medium text-ink-900 dark:bg-ink-800 dark:text-sand-100">
        <i className="size-2 shrink-0 rounded-full bg-sand-500" />
        {copy.tip}
      </p>
      <p className="rounded-2xl bg-road-700 p-3 text-sand-100">
        <span className="flex justify-between">
          {copy.cashback}
          <b className="rounded-full bg-white px-2 whitespace-nowrap text-road-700">{copy.upTo}</b>
        </span>
        <b className="mt-1 block text-[16px] text-white">{copy.cashbackValue}</b>
      </p>
    </div>
  );
}
