import {
  ArrowLeft,
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
import { LegalLinks } from "~/components/LegalLinks";
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

/**
 * The hand-off by a tap, the largest thing on the page and low on a phone's screen, in the
 * thumb's reach: a phone that opens no app from a redirect (an iPhone follows universal links
 * on taps) opens it from here.
 */
const OPEN =
  "inline-flex min-h-20 w-full items-center justify-center gap-3 rounded-2xl px-6 text-xl font-bold";
/** WhatsApp's own green for WhatsApp, as on the landing page's main action; else the brand's. */
const OPEN_COLOURS: Record<CtaType, string> = {
  whatsapp: "btn-whatsapp",
  email: "btn-primary",
  demo: "btn-primary",
  link: "btn-primary",
};
const SECONDARY =
  "inline-flex min-h-12 items-center gap-2 rounded-xl border border-slate-300 px-5 font-semibold hover:bg-slate-50 dark:border-ink-700 dark:hover:bg-ink-800";
const QUIET =
  "inline-flex min-h-12 items-center gap-2 font-semibold underline-offset-4 hover:underline";

/**
 * Without JavaScript the hand-off is a <meta> refresh once the page has loaded, and a mailto:
 * may open nothing: at 2 s the stylesheet swaps what was said before for what to do now
 * (tailwind.css, settle-*). With JavaScript the page's own state says it, once hydrated.
 */
function Settling({ before, after }: { before: ReactNode; after: ReactNode }) {
  return (
    <span className="grid">
      <span className="[grid-area:1/1] animate-[settle-out_0s_2s_forwards]">{before}</span>
      <span className="[grid-area:1/1] animate-[settle-in_0s_2s_backwards]">{after}</span>
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
 * moves on to the hand-off after a second and, when the page is still there after it, says what
 * to do if nothing opened. Its biggest control is the hand-off itself. Back from the hand-off,
 * or the same lead again, it thanks the visitor and moves on only by a tap. The e-mail hand-off
 * also shows the address, so no mail app is no dead end.
 */
export function ThankYouPage({
  cta,
  target,
  returnUrl,
  email,
  leadId,
  handOff,
  copy: t,
}: Omit<ThankYou, "campaign" | "sessionId"> & {
  email: EmailHandOff;
  leadId: string | null;
  handOff: boolean;
  copy: ThankYouCopy;
}) {
  const { counting } = useUi();
  const { remaining, state, stop } = useRedirectCountdown(REDIRECT_DELAY_SECONDS, target, handOff);
  const hydrated = useHydrated();
  const back = (
    <a href={returnUrl} className={QUIET}>
      <ArrowLeft aria-hidden="true" className="size-4 rtl:-scale-x-100" />
      {t.back}
    </a>
  );

  if (!cta || !target) {
    return (
      <section className="mx-auto flex max-w-xl flex-col items-center gap-5 px-5 py-16 text-center sm:py-24">
        <CircleCheck aria-hidden="true" className="size-14 text-road-600 dark:text-road-500" />
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{t.thanks}</h1>
        <p className="text-slate-700 dark:text-slate-300">{t.noTarget}</p>
        {back}
        <LegalLinks copy={t.legal} />
      </section>
    );
  }

  const Icon = ICONS[cta];
  const countdown = remaining > 0 ? counted(counting, remaining, t.countdown) : t.continuingNow;
  // Before hydration (and without JavaScript) the server's word: moving on, or the thanks.
  const lead = hydrated ? (
    {
      counting: t.opening[cta],
      handedOff: t.didntOpen[cta],
      stopped: t.again[cta],
      returned: t.again[cta],
    }[state]
  ) : handOff ? (
    <Settling before={t.opening[cta]} after={t.didntOpen[cta]} />
  ) : (
    t.again[cta]
  );
  const status = hydrated ? (
    { counting: countdown, handedOff: t.settled[cta], stopped: t.stopped, returned: t.returned }[
      state
    ]
  ) : handOff ? (
    <Settling before={countdown} after={t.settled[cta]} />
  ) : (
    t.returned
  );

  const handOffPage = (
    // A pixel added here later reads the lead's id, so Meta counts its Lead and ours once.
    // On a phone the page fills the first screen below the header (4rem and its border): the
    // words in the middle, the button at its foot. From 640 px it is one centred column.
    <section
      className="mx-auto flex min-h-[calc(100svh-4rem-1px)] w-full max-w-xl flex-col items-center px-5 pt-8 text-center sm:min-h-0 sm:py-24"
      data-lead-id={leadId ?? undefined}
    >
      <div className="flex flex-1 flex-col items-center justify-center gap-4 sm:gap-5">
        <Icon aria-hidden="true" className="size-12 text-road-600 sm:size-14 dark:text-road-500" />
        <h1 className="text-2xl font-bold tracking-tight text-balance sm:text-4xl">
          {t.heading[cta]}
        </h1>
        <p className="text-lg font-semibold sm:text-xl">{lead}</p>
        <p className="text-slate-700 dark:text-slate-300">{t.next[cta]}</p>
        {email ? <AddressToCopy address={email.address} copy={t} /> : null}
        <div className="flex flex-wrap items-center justify-center gap-x-4">
          <p
            data-testid="redirect-countdown"
            className="text-sm text-slate-600 dark:text-slate-400"
          >
            {status}
          </p>
          {/* Beside the countdown it stops, away from the button, which so never moves. */}
          {hydrated && state === "counting" ? (
            <button type="button" onClick={stop} className={`${QUIET} text-sm`}>
              {t.stay}
            </button>
          ) : null}
        </div>
      </div>
      {/*
       * Held at the foot of a phone's screen while the page is on it, when something above (the
       * language offer) pushes the page's end below it.
       */}
      <div className="sticky bottom-0 mt-6 flex w-full max-w-sm flex-col items-center gap-3 bg-white pt-2 pb-6 sm:static sm:pb-0 dark:bg-ink-950">
        <a href={target} className={`${OPEN} ${OPEN_COLOURS[cta]}`}>
          {cta === "whatsapp" ? (
            // WhatsApp's mark from the page's sprite, in the button's colour. Written out, as in
            // browser/icon-markup.ts: components/Icon.tsx imported here would be a file of its own
            // on every first visit.
            <svg aria-hidden="true" className="icon size-7 [--mark:currentColor]">
              <use href="#icon-brand-whatsapp" />
            </svg>
          ) : (
            <Icon aria-hidden="true" className="size-7 shrink-0" />
          )}
          {t.open[cta]}
        </a>
        {email ? (
          <a href={email.whatsapp} className={`${QUIET} text-road-700 dark:text-road-500`}>
            <MessageCircle aria-hidden="true" className="size-5 shrink-0" />
            {t.whatsappInstead}
          </a>
        ) : null}
        {back}
      </div>
    </section>
  );
  // Below the first screen on a phone, which stays the hand-off's: words, button, way back.
  return (
    <>
      {handOffPage}
      <LegalLinks copy={t.legal} className="pt-4 pb-8" />
    </>
  );
}
