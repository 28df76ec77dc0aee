import { BRAND_SYMBOL } from "~/shared/icons";

/** The logo, from the page's sprite. Decorative; the brand name carries the meaning. */
export function BrandMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <use href={`#${BRAND_SYMBOL}`} />
    </svg>
  );
}
