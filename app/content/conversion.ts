import { type LucideIcon, MonitorPlay } from "lucide-react";
import type { Localized } from "~/content/localized";
import type { CtaType } from "~/shared/cta";
import type { IconName } from "~/shared/icons";
import type { CountedForms } from "~/shared/plural";

/** The words of the four contact routes, and of the page that counts a lead. */
export const contact = {
  whatsappMessage: "Hi Darb! I'd like the free driving coach app for Dubai.",
  emailSubject: "Darb: I'd like the free app",
  /** Before a WhatsApp lead's reference, on its own line: "Ref DRB-7K2QX". */
  chatRef: "Ref",
} as const;

export type ContactCta = {
  text: string;
  ctaType: CtaType;
  /** A lucide icon, or a mark from the page's sprite (WhatsApp's own, for the WhatsApp route). */
  icon: LucideIcon | IconName;
  arrow?: boolean;
};

// The first is the main action (components/HeroIntro.server.tsx).
export const heroCtas: readonly [ContactCta, ...ContactCta[]] = [
  // Named for where it goes: the beta's download link comes by WhatsApp.
  { text: "Get the app on WhatsApp", ctaType: "whatsapp", icon: "brand-whatsapp", arrow: true },
  { text: "E-mail us", ctaType: "email", icon: "mail" },
  { text: "Try the demo", ctaType: "demo", icon: MonitorPlay },
];

/**
 * Seconds from the tap before /thank-you moves on by itself, with JavaScript. Without it the
 * refresh is immediate, since its timer starts only once the page has loaded
 * (docs/decisions/019-a-one-second-hand-off.md).
 */
export const REDIRECT_DELAY_SECONDS = 1;

export const thankYou = {
  /** Each hand-off is named for what the visitor still has to do: nothing has happened yet. */
  heading: {
    whatsapp: "One step left: send the message",
    email: "One step left: send the e-mail",
    demo: "One step left: try the demo",
    link: "One step left: open the link",
  } satisfies Record<CtaType, string>,
  /** Without a CTA (an unknown or hostile link) there is nothing left to do. */
  thanks: "Thank you!",
  opening: {
    whatsapp: "Opening WhatsApp…",
    email: "Opening your e-mail app…",
    demo: "Taking you to the demo…",
    link: "Taking you there…",
  } satisfies Record<CtaType, string>,
  next: {
    whatsapp: "Send the message that opens in WhatsApp and we'll reply with your download link.",
    email: "Send us a line from your e-mail app and we'll reply with your download link.",
    demo: "The demo shows a real drive through Dubai, scored the way the app scores yours.",
    link: "You're on your way.",
  } satisfies Record<CtaType, string>,
  countdown: {
    one: "Continuing in {count} second.",
    other: "Continuing in {count} seconds.",
  } as CountedForms,
  continuingNow: "Continuing now…",
  /** After the hand-off, when the page is still there: it may have opened nothing. */
  didntOpen: {
    whatsapp: "Didn't WhatsApp open?",
    email: "Didn't your e-mail app open?",
    demo: "Didn't the demo open?",
    link: "Didn't it open?",
  } satisfies Record<CtaType, string>,
  settled: {
    whatsapp: "Tap Open WhatsApp to try once more.",
    email:
      "Copy our address and send us a line from any e-mail app or webmail, or message us on WhatsApp.",
    demo: "Tap Open the demo to try once more.",
    link: "Tap Open the link to try once more.",
  } satisfies Record<CtaType, string>,
  /** Back from the hand-off, or the same lead again: thanks, and the button, never a redirect. */
  returned:
    "Thanks for your interest in Darb. Continue when you're ready, or look around the site.",
  again: {
    whatsapp: "Your chat with us is one tap away.",
    email: "Write to us whenever you're ready.",
    demo: "The demo is one tap away.",
    link: "The link is one tap away.",
  } satisfies Record<CtaType, string>,
  stopped: "Staying here. Continue when you're ready.",
  stay: "Stay on this page",
  address: "Our e-mail address",
  copyAddress: "Copy address",
  copied: "Address copied",
  copyFailed: "Couldn't copy it. The address is selected: copy it from there.",
  whatsappInstead: "Or message us on WhatsApp",
  noTarget:
    "Thanks for your interest in Darb. Have a look around the site, or get in touch any time.",
  /** The page's biggest control: the hand-off itself, by a tap. */
  open: {
    whatsapp: "Open WhatsApp",
    email: "Open your e-mail app",
    demo: "Open the demo",
    link: "Open the link",
  } satisfies Record<CtaType, string>,
  back: "Back to the site",
  /** The links to the privacy notice and the terms (components/LegalLinks.tsx). */
  legal: { label: "Privacy and terms", privacy: "Privacy", terms: "Terms" },
} as const;

/** The thank-you page's words, in any language. */
export type ThankYouCopy = Localized<typeof thankYou>;
