/**
 * Elements of the landing page its script looks for (hooks/use-sticky-action.ts): the hero's main
 * action, whose leaving the screen brings the sticky action up, and the sticky action itself.
 */
export const HERO_MAIN_ACTION_ID = "hero-main-action";
export const STICKY_ACTION_ID = "sticky-action";
/** The closing call; the sticky action gives way while it or the footer is on screen. */
export const CLOSING_ID = "get-started";
