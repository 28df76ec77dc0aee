import { ArrowLeft, ArrowRight, CircleCheck } from "lucide-react";
import { useHydrated } from "remix-utils/use-hydrated";
import { REDIRECT_DELAY_SECONDS, type ThankYouCopy } from "~/content/conversion";
import { useRedirectCountdown } from "~/hooks/use-redirect-countdown";
import { useUi } from "~/hooks/use-site";
import { counted } from "~/lib/plural";
import type { ThankYou } from "~/lib/redirect.server";

export function ThankYouPage({
  cta,
  target,
  returnUrl,
  copy: thankYou,
}: ThankYou & { copy: ThankYouCopy }) {
  const { counting } = useUi();
  const { remaining, state, stop } = useRedirectCountdown(REDIRECT_DELAY_SECONDS, target);
  const hydrated = useHydrated();
  const status = {
    counting:
      remaining > 0 ? counted(counting, remaining, thankYou.countdown) : thankYou.continuingNow,
    stopped: thankYou.stopped,
    returned: thankYou.returned,
  }[state];
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-5 px-5 py-16 text-center sm:py-24">
      <CircleCheck aria-hidden="true" className="size-14 text-road-600 dark:text-road-500" />
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{thankYou.heading}</h1>
      {cta && target ? (
        <>
          <p className="text-xl font-semibold">{thankYou.opening[cta]}</p>
          <p className="text-slate-700 dark:text-slate-300">{thankYou.next[cta]}</p>
          <p
            data-testid="redirect-countdown"
            className="text-sm text-slate-600 dark:text-slate-400"
          >
            {status}
          </p>
          <div className="flex flex-wrap items-center justify-center gap-3">
            <a
              href={target}
              className="inline-flex min-h-12 items-center gap-2 rounded-xl bg-road-700 px-6 font-semibold text-white hover:bg-road-600 dark:bg-road-500 dark:text-ink-950"
            >
              {thankYou.goNow}
              <ArrowRight aria-hidden="true" className="size-4 rtl:-scale-x-100" />
            </a>
            {hydrated && state === "counting" ? (
              <button
                type="button"
                onClick={stop}
                className="inline-flex min-h-12 items-center rounded-xl border border-slate-300 px-5 font-semibold hover:bg-slate-50 dark:border-ink-700 dark:hover:bg-ink-800"
              >
                {thankYou.stay}
              </button>
            ) : null}
          </div>
        </>
      ) : (
        <p className="text-slate-700 dark:text-slate-300">{thankYou.noTarget}</p>
      )}
      <a
        href={returnUrl}
        className="inline-flex min-h-12 items-center gap-2 font-semibold underline-offset-4 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4 rtl:-scale-x-100" />
        {thankYou.back}
      </a>
    </section>
  );
}
