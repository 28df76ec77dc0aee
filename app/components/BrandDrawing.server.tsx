/**
 * The logo's drawing, a road bending into a check mark: a <symbol> in the page's icon sprite
 * (components/icons.server.tsx), so the header shows it without its paths in the bundle.
 */
export function BrandDrawing() {
  return (
    <>
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
    </>
  );
}
