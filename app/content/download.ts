/** Download section and the closing call to action. */
export const download = {
  heading: "Get the app",
  body: "Darb is in a limited beta for Dubai drivers. Message us on WhatsApp and we'll send your personal download link for iPhone or Android, or write to us if you prefer e-mail.",
  whatsapp: "Get the link on WhatsApp",
  email: "Ask by e-mail",
  /** "{date}" is the next 15 June with its year (shared/download-deadline.ts): "15 June 2027". */
  deadline:
    "Download before {date} for lifetime premium features and priority cashback processing.",
} as const;

export const getStarted = {
  heading: "Start driving safer this week",
  body: "Free to download, free to keep. Your first coaching tip arrives after your first drive.",
  app: "Get the free app",
  email: "E-mail support",
  share: "Share",
} as const;
