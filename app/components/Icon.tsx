import { ICON_PREFIX, type IconName } from "~/shared/icons";

/**
 * An icon for an interactive part: a <use> of the page's sprite (shared/icons.ts), stroked the way
 * lucide draws. `className` sizes it ("size-5"); it is decoration, hidden from screen readers.
 */
export function Icon({ name, className }: { name: IconName; className: string }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={`shrink-0 ${className}`}
    >
      <use href={`#${ICON_PREFIX}${name}`} />
    </svg>
  );
}
