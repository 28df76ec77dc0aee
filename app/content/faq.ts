/** FAQ: answered in <details>, so every answer opens without JavaScript. */
export const faq = {
  heading: "Frequently asked questions",
  items: [
    {
      question: "Is Darb really free?",
      answer:
        "Yes. Basic is free with no card and no trial period. Plus (149 AED) and Pro (299 AED) add route optimisation, full analytics and family accounts; you only pay if you choose them.",
    },
    {
      question: "What happens to my driving data?",
      answer:
        "Trips are encrypted on your phone and on our servers, used only to coach you and to prepare the cashback report you ask for, and never sold or shared for advertising. You can export or delete every trip from the app at any time.",
    },
    {
      question: "How does the insurance cashback work?",
      answer:
        "Partner insurers pay back up to 25% of your premium when your driving score stays high. Darb keeps your score and, when your policy renews, sends the driving report to your insurer with your permission. The percentage depends on the insurer and your score.",
    },
    {
      question: "Which phones are supported?",
      answer:
        "iPhone with iOS 16 or newer and Android phones with Android 10 or newer. Darb uses the phone's own sensors and GPS, so there is nothing to plug into the car.",
    },
    {
      question: "Will it drain my battery?",
      answer:
        "A typical 40-minute drive uses about 4–6% of a charged phone's battery, similar to running a navigation app. Darb sleeps when you're not driving, and most drivers keep the phone on a charger in the car anyway.",
    },
    {
      question: "Does the app work in Arabic?",
      answer:
        "Yes. The whole app, including spoken alerts, is available in Arabic and English, and you can switch at any time in settings.",
    },
    {
      question: "What does the 15 June deadline mean?",
      answer:
        "Drivers who install during the beta, before 15 June, keep premium features for life and get their cashback processed first.",
    },
  ],
} as const;
