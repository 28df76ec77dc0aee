/** The logo: a road bending into a check mark. Decorative; the brand name carries the meaning. */
export function BrandMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" className="fill-ink-900 dark:fill-road-600" />
      <path
        d="M8 17.5l5 5L24.5 10"
        fill="none"
        stroke="currentColor"
        strokeWidth="3.5"
        strokeLinecap="round"
        strokeLinejoin="round"
        className="text-road-500 dark:text-white"
      />
      <path
        d="M8 17.5l5 5L24.5 10"
        fill="none"
        stroke="white"
        strokeWidth="1"
        strokeDasharray="2 2.5"
        strokeLinecap="round"
        className="dark:stroke-ink-900"
      />
    </svg>
  );
}
