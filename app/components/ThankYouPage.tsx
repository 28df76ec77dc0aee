import {
  ArrowLeft,
  ArrowRight,
  CircleCheck,
  Copy,
  ExternalLink,
  Mail,
  MessageCircle,
  MonitorPlay,
} from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { copyText } from "~/browser/copy-text";
import { REDIRECT_DELAY_SECONDS, type ThankYouCopy } from "~/content/conversion";
import { useRedirectCountdown } from "~/hooks/use-redirect-countdown";
import { useUi } from "~/hooks/use-site";
import type { ThankYou } from "~/pages/thank-you.server";
import type { CtaType } from "~/shared/cta";
import { counted } from "~/shared/plural";

/** For the e-mail hand-off: the address to write to by hand, and WhatsApp as the other way. */
export type EmailHandOff = { address: string; whatsapp: string } | null;

const ICONS: Record<CtaType, typeof Mail> = {
  whatsapp: MessageCircle,
  email: Mail,
  demo: MonitorPlay,
  link: ExternalLink,
};

const PRIMARY =
  "inline-flex min-h-12 items-center gap-2 rounded-xl bg-road-700 px-6 font-semibold text-white hover:bg-road-600 dark:bg-road-500 dark:text-ink-950";
const SECONDARY =
  "inline-flex min-h-12 items-center gap-2 rounded-xl border border-slate-300 px-5 font-semibold hover:bg-slate-50 dark:border-ink-700 dark:hover:bg-ink-800";

/**
 * Without JavaScript the hand-off is a <meta> refresh at 3 s, and a mailto: may open nothing:
 * at 4 s the stylesheet swaps what was said before for what to do now (tailwind.css, settle-*).
 * With JavaScript the page's own state says it, as soon as the page is hydrated.
 */
function Settling({ before, after }: { before: ReactNode; after: ReactNode }) {
  return (
    <span className="grid">
      <span className="[grid-area:1/1] animate-[settle-out_0s_4s_forwards]">{before}</span>
      <span className="[grid-area:1/1] animate-[settle-in_0s_4s_backwards]">{after}</span>
    </span>
  );
}

/** The address, selectable in one tap without JavaScript, with a copy button once hydrated. */
function AddressToCopy({ address, copy }: { address: string; copy: ThankYouCopy }) {
  const hydrated = useHydrated();
  const shown = useRef<HTMLElement>(null);
  const [result, setResult] = useState<"copied" | "failed" | null>(null);
  const onCopy = async () => {
    setResult(null);
    setResult((await copyText(address, shown.current)) ? "copied" : "failed");
  };
  return (
    <div className="flex w-full flex-col items-center gap-3 rounded-2xl border border-slate-200 bg-slate-50 p-4 dark:border-ink-800 dark:bg-ink-900">
      <p className="text-sm text-slate-600 dark:text-slate-400">{copy.address}</p>
      <p className="text-xl font-semibold">
        <bdi dir="ltr" ref={shown} className="select-all [overflow-wrap:anywhere]">
          {address}
        </bdi>
      </p>
      {hydrated ? (
        <>
          <button
            type="button"
            onClick={onCopy}
            className={`${SECONDARY} bg-white dark:bg-ink-950`}
          >
            <Copy aria-hidden="true" className="size-5 shrink-0" />
            {copy.copyAddress}
          </button>
          {/* There before the click: screen readers announce changes to a region they know. */}
          <p role="status" aria-live="polite" className="min-h-5 text-sm font-medium">
            {result === "copied" ? copy.copied : result === "failed" ? copy.copyFailed : ""}
          </p>
        </>
      ) : null}
    </div>
  );
}

/**
 * The page a lead passes through (routes/thank-you.tsx): named for the step that is left, it
 * counts down to the hand-off and, when the page is still there after it, says what to do if
 * nothing opened. The e-mail hand-off also shows the address, so no mail app is no dead end.
 */
export function ThankYouPage({
  cta,
  target,
  returnUrl,
  email,
  leadId,
  copy: t,
}: Omit<ThankYou, "campaign" | "sessionId"> & {
  email: EmailHandOff;
  leadId: string | null;
  copy: ThankYouCopy;
}) {
  const { counting } = useUi();
  const { remaining, state, stop } = useRedirectCountdown(REDIRECT_DELAY_SECONDS, target);
  const hydrated = useHydrated();
  const back = (
    <a
      href={returnUrl}
      className="inline-flex min-h-12 items-center gap-2 font-semibold underline-offset-4 hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="size-4 rtl:-scale-x-100" />
      {t.back}
    </a>
  );
  const section =
    "mx-auto flex max-w-xl flex-col items-center gap-5 px-5 py-16 text-center sm:py-24";

  if (!cta || !target) {
    return (
      <section className={section}>
        <CircleCheck aria-hidden="true" className="size-14 text-road-600 dark:text-road-500" />
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{t.thanks}</h1>
        <p className="text-slate-700 dark:text-slate-300">{t.noTarget}</p>
        {back}
      </section>
    );
  }

  const Icon = ICONS[cta];
  const countdown = remaining > 0 ? counted(counting, remaining, t.countdown) : t.continuingNow;
  const lead = hydrated ? (
    state === "handedOff" ? (
      t.didntOpen[cta]
    ) : (
      t.opening[cta]
    )
  ) : (
    <Settling before={t.opening[cta]} after={t.didntOpen[cta]} />
  );
  const status = hydrated ? (
    { counting: countdown, handedOff: t.settled[cta], stopped: t.stopped, returned: t.returned }[
      state
    ]
  ) : (
    <Settling before={countdown} after={t.settled[cta]} />
  );
  // Until the hand-off it skips the wait; after it, it tries again.
  const again = hydrated && (state === "handedOff" || state === "returned");

  return (
    // A pixel added here later reads the lead's id, so Meta counts its Lead and ours once.
    <section className={section} data-lead-id={leadId ?? undefined}>
      <Icon aria-hidden="true" className="size-14 text-road-600 dark:text-road-500" />
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
        {t.heading[cta]}
      </h1>
      <p className="text-xl font-semibold">{lead}</p>
      <p className="text-slate-700 dark:text-slate-300">{t.next[cta]}</p>
      {email ? <AddressToCopy address={email.address} copy={t} /> : null}
      <p data-testid="redirect-countdown" className="text-sm text-slate-600 dark:text-slate-400">
        {status}
      </p>
      <div className="flex flex-wrap items-center justify-center gap-3">
        <a href={target} className={PRIMARY}>
          {again ? t.openAgain : t.goNow}
          <ArrowRight aria-hidden="true" className="size-4 rtl:-scale-x-100" />
        </a>
        {hydrated && state === "counting" ? (
          <button type="button" onClick={stop} className={SECONDARY}>
            {t.stay}
          </button>
        ) : null}
      </div>
      {email ? (
        <a
          href={email.whatsapp}
          className="inline-flex min-h-12 items-center gap-2 font-semibold text-road-700 underline-offset-4 hover:underline dark:text-road-500"
        >
          <MessageCircle aria-hidden="true" className="size-5 shrink-0" />
          {t.whatsappInstead}
        </a>
      ) : null}
      {back}
    </section>
  );
}
