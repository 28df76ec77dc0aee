/**
 * The chat's automatic first reply (analytics/destinations/whatsapp-reply.server.ts): sent as
 * one WhatsApp text in the lead's language, the moment the driver's first message arrives.
 * `{link}` is the beta link for the driver's phone, as the settings give it.
 */
export const whatsappReply = {
  thanks: "Thanks for messaging Darb, the free driving coach for Dubai.",
  ios: "Your iPhone link: {link}",
  android: "Your Android link: {link}",
  /** When the phone was neither an iPhone nor an Android phone at the tap: both links. */
  either: "Open the one for your phone:",
  install: "Open it on your phone to install the beta. Questions? Just reply here.",
  /** With no beta link set: an honest word on when a person answers. */
  noLink:
    "We have your message. A person from our team answers here between 8 am and 10 pm Dubai time, usually within the hour.",
} as const;
