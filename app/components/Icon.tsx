import { ICON_PREFIX, type IconName } from "~/shared/icons";

/**
 * An icon for an interactive part: a <use> of the page's sprite (shared/icons.ts), stroked the way
 * lucide draws by the `icon` class. `className` sizes it ("size-5"); it is decoration, hidden from
 * screen readers. The symbol's own viewBox scales it to the box, so the <svg> needs none.
 */
export function Icon({ name, className }: { name: IconName; className: string }) {
  return (
    <svg aria-hidden="true" className={`icon ${className}`}>
      <use href={`#${ICON_PREFIX}${name}`} />
    </svg>
  );
}
