/**
 * The networks the site can be shared to, in the order the menu shows them: WhatsApp first, as it
 * is how Dubai's drivers pass a link on. The copy names each one, so the list sits below both.
 */
export const SHARE_PLATFORMS = ["whatsapp", "facebook", "twitter", "linkedin"] as const;
export type SharePlatform = (typeof SHARE_PLATFORMS)[number];
