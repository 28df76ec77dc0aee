import { TriangleAlert } from "lucide-react";
import { useCopy } from "~/hooks/use-copy.server";

/** The app on a phone: a route along Sheikh Zayed Road with a live alert. Drawn, not downloaded. */
export function PhoneMockup() {
  const { landing } = useCopy();
  const copy = landing.hero.mockup;
  return (
    <div aria-hidden="true" className="relative mx-auto w-64 shrink-0 sm:w-72">
      <div className="rounded-[2.5rem] bg-ink-950 p-2.5 shadow-2xl shadow-ink-900/30 ring-1 ring-ink-700">
        <div className="relative aspect-[9/19] overflow-hidden rounded-[2rem] bg-[#dfe9e6] dark:bg-[#12261f]">
          <svg
            viewBox="0 0 180 380"
            className="absolute inset-0 size-full"
            preserveAspectRatio="xMidYMid slice"
            aria-hidden="true"
          >
            <path
              d="M-10 300 L190 210"
              stroke="#c7d3cf"
              strokeWidth="26"
              className="dark:stroke-[#1f3a32]"
            />
            <path
              d="M40 -10 L120 390"
              stroke="#c7d3cf"
              strokeWidth="14"
              className="dark:stroke-[#1f3a32]"
            />
            <path
              d="M-10 90 L190 150"
              stroke="#c7d3cf"
              strokeWidth="10"
              className="dark:stroke-[#1f3a32]"
            />
            <path
              d="M30 340 C 60 300, 70 260, 95 230 S 140 160, 150 60"
              fill="none"
              stroke="#0d9488"
              strokeWidth="7"
              strokeLinecap="round"
            />
            <circle cx="30" cy="340" r="8" fill="#0b1f33" stroke="white" strokeWidth="3" />
            <circle cx="150" cy="60" r="8" fill="#e0a43b" stroke="white" strokeWidth="3" />
          </svg>
          <div className="absolute inset-x-3 top-8 rounded-2xl bg-white/95 p-3 text-ink-950 shadow-lg dark:bg-ink-900/95 dark:text-white">
            <p className="flex items-center gap-2 text-xs font-semibold text-alert-600 dark:text-sand-300">
              <TriangleAlert className="size-4" />
              {copy.alertTitle}
            </p>
            <p className="mt-1 text-[10px] text-slate-600 dark:text-slate-300">{copy.alertBody}</p>
          </div>
          <div className="absolute inset-x-3 bottom-4 flex items-center justify-between gap-2 rounded-2xl bg-ink-900 p-3 text-white">
            <div className="min-w-0 whitespace-nowrap">
              <p className="text-[10px] text-slate-300">{copy.road}</p>
              <p className="text-xs font-semibold">{copy.eta}</p>
            </div>
            <div className="shrink-0 text-end">
              <p className="text-[10px] whitespace-nowrap text-slate-300">{copy.score}</p>
              <p className="text-lg font-bold text-road-500">{copy.scoreValue}</p>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
