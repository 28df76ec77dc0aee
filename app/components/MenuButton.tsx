import { type RefObject, useSyncExternalStore } from "react";
import { Icon } from "~/components/Icon";

const never = () => () => {};

/**
 * remix-utils' useHydrated, written out: imported, it becomes a chunk of its own that every
 * visit loads (the thank-you page shares it), costing more in the chunk's wrapping than its code.
 */
const useHydrated = () =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  );

/**
 * The small screens' menu button. Its own component because useHydrated re-renders whoever
 * calls it once hydration ends: this button, not the whole header.
 */
export function MenuButton({
  open,
  onToggle,
  buttonRef,
  controls,
  labels,
}: {
  open: boolean;
  onToggle: () => void;
  buttonRef: RefObject<HTMLButtonElement>;
  /** The id of the menu it opens. */
  controls: string;
  labels: { menu: string; closeMenu: string };
}) {
  const hydrated = useHydrated();
  return hydrated ? (
    <button
      ref={buttonRef}
      type="button"
      onClick={onToggle}
      aria-expanded={open}
      aria-controls={controls}
      aria-label={open ? labels.closeMenu : labels.menu}
      className="icon-button lg:hidden"
    >
      <Icon name={open ? "close" : "menu"} className="size-6" />
    </button>
  ) : (
    // Without JavaScript the menu can't open: the same links wait in the footer.
    <a href="#footer-nav" className="icon-button lg:hidden" aria-label={labels.menu}>
      <Icon name="menu" className="size-6" />
    </a>
  );
}
