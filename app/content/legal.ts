import type { PageEventName, ServerEventName } from "~/shared/events";
import type { CountedForms } from "~/shared/plural";

/**
 * The privacy notice and the terms (routes/privacy.tsx, routes/terms.tsx), in plain words. A
 * section's body is its paragraphs; a list is an array among them. "{slots}" are filled by
 * pages/legal.server.ts from the settings and the code (the cookie's name, the retention, the
 * contact address, the company), so the pages say what this server is set to do and no value is
 * written here twice. Which sections a page shows depends on the settings too: see there.
 */
export const legal = {
  updated: "Last updated {date}.",
  /** The company behind the site (COMPANY_* settings): each line only while it is set. */
  company: {
    /** Who runs the site while COMPANY_NAME is unset: no company name is ever made up. */
    unnamed: "the team behind the Darb app",
    runBy: "This website is run by {operator}.",
    licence: "Trade licence no. {licence}",
    address: "Registered address: {address}",
  },
  privacy: {
    heading: "Privacy notice",
    intro:
      "What this website records when you visit, who it sends that to, and how long it keeps it. It is written from the site's code and settings, so it names a service only while the site is set to use it.",
    who: {
      heading: "Who runs this site",
      contact: "For anything in this notice, write to {email}.",
    },
    summary: {
      heading: "In short",
      body: [
        [
          "No tracking scripts, ad pixels or ads load in your browser. The site counts visits on its own server.",
          "No account and no forms: the site never asks for your name, e-mail or phone number.",
          "No other company's cookie, and none that follows you across the web. A visitor is a number that changes every day.",
          "The site's own cookies keep only the campaign that brought you, so that a lead you make days later still counts for it, and your choice of language.",
          "If your browser sends Global Privacy Control, the site records nothing about you.",
        ],
      ],
    },
    visitor: {
      heading: "A visitor number that changes every day",
      body: [
        "To count visits and leads without a cookie, our server works out a number for each visitor from four things: a secret key of the site's own, today's date in Dubai, your IP address, and your browser's user agent (its name and version).",
        "It is a one-way hash: the number cannot be turned back into your address. It changes every day and on every network, so the site cannot follow you from one day to the next. No cookie and no browser storage holds it.",
      ],
    },
    storage: {
      heading: "The site's own cookies, and the tab's own memory",
      body: [
        "When the link that brought you carries a campaign or an ad's click id, the site keeps them in a cookie, {campaign}, so that a tap on a later day still counts for the ad or campaign that brought you, as it would have on the day. Each is kept for as long as its network credits a click: the campaign's words and Google's click id for 90 days, Snapchat's for 28 days, Meta's and TikTok's for 7. The next link with a campaign replaces them. The cookie holds nothing else, neither your address nor the visitor number, and only our server reads it. If your browser sends Global Privacy Control, the site keeps none of this, and removes what an earlier visit left.",
        "The site sets {cookie} only when you close the offer to read the site in the other language, or pick a language. It says only that the offer should stay away, and it lasts a year.",
        "While the tab is open, the site keeps the campaign of the link you came from (its words and any ad click id) and a session number in the tab's own storage, which the browser clears when you close the tab. They let a tap later in the visit count with the campaign that brought you.",
      ],
      /** Only while Meta is a destination. */
      fbp: "While our leads go to Meta, the site also keeps a random number for this browser, {fbp}, made as Meta's own pixel makes it, for 90 days. It goes to Meta with your lead, so that Meta can tell this browser's visits from others'; it says nothing else about you.",
      countdown:
        "The beta's countdown keeps the time of your first visit in this browser's storage, {key}, so that it does not start again when you come back. It never leaves your browser, and clearing the site's data removes it.",
    },
    events: {
      heading: "What the site records",
      body: [
        "As you use the site, your browser tells our server about these events. A lead is recorded by the server itself, so it counts even with JavaScript off.",
        "With JavaScript off, each page asks our server for a tiny invisible image instead, and the server records that page view itself.",
      ],
      /** After the list of events. */
      after:
        "Each event also carries the page's language, the visitor and session numbers and, when the link you came from had them, its campaign words (source, medium, campaign, term, content) and an ad's click id, such as Google's, Meta's, TikTok's or Snapchat's.",
      /** What each event says, in the list; named as the code names them. */
      /** Only while an experiment runs (EXPERIMENTS_FILE; docs/experiments.md). */
      experiment:
        "While we test new words for the top of this page, each visitor sees one version, chosen from the day's visitor number, all day. The server counts how many visitors saw each version each day, never who saw which. The page's buttons carry the version's name, and so does your lead; the tab keeps it while it is open, so a tap on another page carries it too. GA4 gets {event} once a visit with the version's name.",
      names: {
        page_view: "a page you opened: its address, the page before it and its title",
        campaign_details: "the campaign words of the link you came from, once a visit",
        cta_click: "a tap on a button: which one, its words and where it is on the page",
        external_link_click: "a tap on a link to another site, and where it leads",
        navigation_click: "a tap on a link to another part of this site",
        email_click: "a tap on our e-mail address",
        social_share: "sharing the site, and where to",
        generate_lead:
          "a lead: you tapped to get the app on WhatsApp, to e-mail us or to see the demo, with the plan you asked about",
        conversion: "every tap that passes through our thank-you page, leads included",
      } satisfies Record<PageEventName | ServerEventName, string>,
    },
    leads: {
      heading: "Leads, and how long we keep them",
      body: [
        "When you tap to get the app, the server keeps a record of the lead: when, which button, the page's language, the plan, the campaign words and click ids of your link, the visitor and session numbers and, for WhatsApp, the chat reference.",
        "If our team later marks what became of it (qualified, a customer, or not interested), that is kept with it.",
        "Leads are kept for {retention}, then erased.",
      ],
      retention: { one: "{count} day", other: "{count} days" } as CountedForms,
    },
    chat: {
      heading: "Your WhatsApp message",
      body: [
        "A WhatsApp button opens WhatsApp with a message written for you. It ends with a reference such as {ref}, which ties your chat to your lead, so we know which campaign brought you. You can delete it before you send the message.",
        "What you send on WhatsApp travels through WhatsApp, a Meta service, under its own privacy policy.",
      ],
      /**
       * Only while the WhatsApp webhook is set up (WHATSAPP_VERIFY_TOKEN, WHATSAPP_APP_SECRET),
       * followed in the same paragraph by what becomes of the number: `number`, or `numberReplying`
       * while the chat's automatic reply is on (the "whatsapp" service below).
       */
      webhook:
        "When you message us, WhatsApp passes your message to our server. It keeps the message's id, its time, the reference it quotes and, for a chat that began from a Click-to-WhatsApp ad, that ad's click id, id and headline, for as long as the lead.",
      number:
        "It does not keep what you wrote, nor your WhatsApp number: only the number hashed ({hash}), for the services below, and only until the lead is a customer or has said no.",
      numberReplying:
        "It does not keep what you wrote. It keeps your WhatsApp number in two ways only: hashed ({hash}), for the services below, until the lead is a customer or has said no; and encrypted, for our automatic reply, only until WhatsApp has the reply (at most 24 hours), as the WhatsApp section below says.",
    },
    recipients: {
      heading: "Who else receives it",
      /** While at least one service below is set up. */
      some: "Our server sends what it records to the services below. Your browser never talks to them from this site.",
      /** While none is. */
      none: "No one. This site is not set up to send what it records to any analytics or advertising service: it stays on our server.",
    },
    /**
     * One section per service the site can send to, each shown only while its settings are set
     * (pages/privacy-notice.server.ts, recipientsOn). A chat line only while the WhatsApp webhook
     * is set up; a stages line only while the team can tell the site of them (LEADS_API_TOKEN).
     */
    services: {
      ga4: {
        heading: "Google Analytics",
        body: [
          "Our server sends the events above to Google Analytics 4, Google's analytics service, as they happen (or up to 72 hours later, if Google could not be reached), each with the visitor and session numbers. With them go your IP address, from which Google works out your city and country (Google says it does not store IP addresses), and your device as your browser's user agent names it: phone, tablet or computer, its make and model, its system and browser. Until Google confirms it has them, your address and device wait with them on our server; they are removed within an hour of Google's answer.",
        ],
        chat: "When a lead's WhatsApp chat begins, it also sends {event} for that lead.",
        stages:
          "When our team marks a lead as qualified, as a customer (the app installed) or as lost, it sends the matching lead event for that lead, with what that is worth to us in dirhams.",
      },
      meta: {
        heading: "Meta (Facebook and Instagram ads)",
        body: [
          "For each lead, and only for leads, our server tells Meta, so that Meta can tell which of its ads brought it. It sends:",
          [
            "your IP address and your browser's user agent, which Meta needs to match a visit to an ad;",
            "the visitor number, hashed once more ({hash});",
            "the time, the page you tapped on with its campaign words, and the lead's id;",
            "what the lead was: the button, the page's language, the plan and the campaign;",
            "if you came from a Facebook or Instagram ad, its click id ({fbclid}, sent as {fbc});",
            "the number the site keeps for this browser for Meta ({fbp}).",
          ],
          "Never your name, e-mail or phone number, and no other network's click id. Until Meta confirms it has the lead, your address and user agent wait with it on our server; they are removed within an hour of Meta's answer.",
        ],
        chat: "When a lead's WhatsApp chat begins, it tells Meta that too, with the same hashed visitor number and click id, and your WhatsApp number hashed ({hash}), never the number itself.",
        stages:
          "If our team later marks the lead as qualified or as a customer, Meta is told the same way, with what that is worth to us in dirhams.",
      },
      tiktok: {
        heading: "TikTok (TikTok ads)",
        body: [
          "For each lead, and only for leads, our server tells TikTok, so that TikTok can tell which of its ads brought it. It sends:",
          [
            "your IP address and your browser's user agent, which TikTok uses to match a visit to an ad;",
            "the visitor number, hashed once more ({hash});",
            "the time, the page you tapped on with its campaign words, and the lead's id;",
            "if you came from a TikTok ad, its click id ({ttclid}).",
          ],
          "Never your name, e-mail, phone number or a cookie, and no other network's click id. Until TikTok confirms it has the lead, your address and user agent wait with it on our server; they are removed within an hour of TikTok's answer.",
        ],
        chat: "When a lead's WhatsApp chat begins, it tells TikTok that too, with the same hashed visitor number and click id, and your WhatsApp number hashed ({hash}), never the number itself.",
        stages:
          "If our team later marks the lead as qualified or as a customer, TikTok is told the same way, with what that is worth to us in dirhams.",
      },
      snap: {
        heading: "Snap (Snapchat ads)",
        body: [
          "For each lead, and only for leads, our server tells Snap, so that Snap can tell which of its ads brought it. It sends:",
          [
            "your IP address and your browser's user agent, which Snap uses to match a visit to an ad;",
            "the visitor number, hashed once more ({hash});",
            "the time, the page you tapped on with its campaign words, and the lead's id;",
            "if you came from a Snapchat ad, its click id ({ScCid}).",
          ],
          "Never your name, e-mail, phone number or a cookie, and no other network's click id. Until Snap confirms it has the lead, your address and user agent wait with it on our server; they are removed within an hour of Snap's answer.",
        ],
        chat: "When a lead's WhatsApp chat begins, it tells Snap that too, with the same hashed visitor number and click id, and your WhatsApp number hashed ({hash}), never the number itself.",
        stages:
          "If our team later marks the lead as qualified or as a customer, Snap is told the same way, with what that is worth to us in dirhams.",
      },
      google_ads: {
        heading: "Google Ads",
        body: [
          "Only for a lead that came from a Google ad (its link carried Google's click id, {gclid} or one like it), our server tells Google Ads that the click led to a lead: the click id, the time, the lead's id, and your IP address and browser's user agent, which Google uses to match the click.",
          "Not the visitor number, and no other network's click id. A lead that did not come from a Google ad is not sent to Google Ads at all. Until Google confirms it has the lead, your address and user agent wait with it on our server; they are removed within an hour of Google's answer.",
        ],
        chat: "When that lead's WhatsApp chat begins, Google Ads may be told too, with the same click id and your WhatsApp number hashed ({hash}), never the number itself.",
        stages:
          "If our team later marks that lead as qualified or as a customer, Google Ads may be told the same way, with what that is worth to us in dirhams.",
      },
      /** The chat's automatic first reply (WHATSAPP_ACCESS_TOKEN, WHATSAPP_PHONE_NUMBER_ID). */
      whatsapp: {
        heading: "WhatsApp (our automatic first reply)",
        body: [
          "When your first WhatsApp message from this site reaches us, our server answers it at once through WhatsApp (Meta's WhatsApp Business Platform, its Cloud API) with one message, in the language of the page you tapped on: the beta's link for your phone, iPhone or Android, as your browser named it when you tapped (both links when it named neither), or, while we have no link to send, when a person from our team answers.",
        ],
        chat: "To send it, our server gives WhatsApp your WhatsApp number and the words of the reply. Until WhatsApp has the reply, your number waits on our server encrypted, for at most 24 hours after your message (WhatsApp takes no reply after that); it is removed within an hour of WhatsApp's answer or of those 24 hours, and it is never used for anything else.",
      },
    },
    unrecorded: {
      heading: "When nothing is recorded",
      body: [
        "If your browser sends Global Privacy Control (the {gpc} header), the site records nothing about your visit: no events, no lead, nothing sent to anyone. Every page and button works just the same.",
        "Nothing is recorded either for search engines and other robots, or for pages a browser fetches ahead of time or for a preview.",
      ],
    },
    logs: {
      heading: "Server logs",
      body: [
        "Our server's own log holds no IP address and no user agent. It notes errors and, only when switched on, one line per request: the method, the path without its query, the answer's status and size, and how long it took. To stop floods, the server also counts requests per IP address for a short time.",
      ],
      /** While Google Analytics is not set up. */
      events:
        "While no analytics service is set up, each event above is written to this log instead.",
      /** While TRUST_PROXY says a proxy stands in front of the server. */
      proxy:
        "The site runs behind a proxy, which logs each request as web servers usually do: the IP address, the time, the address asked for, the page before and the user agent.",
    },
    app: {
      heading: "The Darb app",
      body: [
        "This notice is about the website. The Darb app, which you get from the link we send, uses your phone's GPS and sensors while you drive, to coach you and score your drives.",
        "Trips are encrypted on your phone and on our servers, used only to coach you and to prepare the cashback report you ask for, and never sold or shared for advertising. The report goes to your insurer only with your permission, when your policy renews. You can export or delete every trip from the app at any time.",
      ],
    },
    rights: {
      heading: "Seeing or deleting your data",
      body: [
        "Write to {email} to ask what we hold about you, or to have it deleted. We hold no name or phone number with a lead, so tell us roughly when you tapped, on which phone and network, or quote the reference from your WhatsApp message: that is how we find it.",
        "To stop the site recording your visits, turn on Global Privacy Control in your browser.",
      ],
      /** The first paragraph instead, while the automatic reply holds a number for a while. */
      replying:
        "Write to {email} to ask what we hold about you, or to have it deleted. We hold no name with a lead, and your phone number only hashed, or encrypted until our reply has gone, so tell us roughly when you tapped, on which phone and network, or quote the reference from your WhatsApp message: that is how we find it.",
    },
    changes: {
      heading: "Changes",
      body: [
        "When the site starts recording or sending something new, this notice changes with it.",
      ],
    },
  },
  terms: {
    heading: "Terms",
    intro: "The terms of this website and of the Darb beta offer, in plain words.",
    who: {
      heading: "Who we are",
      contact: "Questions: write to {email} or call {phone}. We are in {place}.",
    },
    site: {
      heading: "This website",
      body: [
        "The site tells drivers in Dubai about the Darb app and how to get it. It is free to use and needs no account. You are welcome to share links to any page.",
      ],
    },
    beta: {
      heading: "The beta",
      /** How the link is asked for and when it comes: the beta's first paragraph. */
      ask: "Darb is in a limited beta for drivers in Dubai. Ask on WhatsApp or by e-mail and we send your personal download link for iPhone or Android, usually within the hour, 8 am to 10 pm.",
      /** `ask` while the chat's automatic reply sends the link itself (config.instantReply). */
      askInstant:
        "Darb is in a limited beta for drivers in Dubai. Ask on WhatsApp and your personal download link for iPhone or Android comes in seconds, any time; ask by e-mail and we send it, usually within the hour, 8 am to 10 pm.",
      body: [
        "The app is free during the beta, and every beta driver gets the Plus plan at no cost. Install before 15 June to keep premium features for life and have your cashback processed first.",
      ],
      /** While BETA_CLOSES_AT is set. */
      closes: "Beta places close {date}, Dubai time.",
    },
    plans: {
      heading: "Plans and prices",
      body: [
        "Basic is free for every driver, for good, with no card and no trial period. Plus ({plus}) and Pro ({pro}) are priced {period} and apply from launch. You pay only if you choose one of them.",
      ],
    },
    cashback: {
      heading: "What “up to 25% cashback” means",
      body: [
        "Darb's partner insurers pay back up to 25% of your insurance premium when your driving score stays high. 25% is the most, not a promise: the percentage depends on the insurer and on your score.",
        "Darb keeps your score and, when your policy renews, sends your driving report to your insurer, only with your permission.",
        "Figures the site marks as examples, such as the example weekly report, show how the app reports; they are not a promise of what you will get.",
      ],
    },
    driving: {
      heading: "You are the driver",
      body: [
        "Darb's alerts, routes and scores help you drive; they do not replace your own attention, the road's signs or the rules of the road.",
      ],
    },
    privacy: {
      heading: "Your privacy",
      body: ["What the site records and sends, and how to have it deleted: {privacy}."],
      /** The link's words in that sentence. */
      link: "the privacy notice",
    },
  },
} as const;
