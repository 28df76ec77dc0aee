/**
 * Elements of the landing page its script looks for (hooks/use-sticky-action.ts): the hero's main
 * action, whose leaving the screen brings the sticky action up, and the sticky action itself.
 */
export const HERO_MAIN_ACTION_ID = "hero-main-action";
export const STICKY_ACTION_ID = "sticky-action";
/**
 * Where the page offers the same action itself: the sticky one gives way while the download
 * section, the closing call or the footer is on screen.
 */
export const ACTION_SECTION_IDS = ["download", "get-started"];
