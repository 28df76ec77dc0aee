import type { ReactNode } from "react";
import { LOCALE_INFO, type Locale } from "~/shared/locale";
import { HEIGHT, INSET, type Ink, WIDTH } from "./layout";
import { BRAND } from "./palette";

/** The page's own font stacks (app/tailwind.css): an image cannot load fonts, so system ones. */
const FONTS: Record<Locale, string> = {
  en: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', 'Noto Sans', Arial, sans-serif",
  ar: "system-ui, -apple-system, 'SF Arabic', 'Geeza Pro', 'Noto Naskh Arabic', 'Noto Sans Arabic', 'Segoe UI', Tahoma, Arial, sans-serif",
};

/**
 * A phone, as a standalone SVG document: the black body, the screen (its corners clip what it
 * shows), and the status bar over it. Text inherits the language, direction and font set here.
 * `title` names the document when it is opened on its own; in the page the <img>'s alt does.
 * `height` is shorter for a cropped drawing (layout.ts, CROPPED_HEIGHT).
 */
export function PhoneSvg({
  locale,
  title,
  ink,
  height = HEIGHT,
  children,
}: {
  locale: Locale;
  title: string;
  ink: Ink;
  height?: number;
  children: ReactNode;
}) {
  const { lang, dir } = LOCALE_INFO[locale];
  const screen = { x: INSET, y: INSET, width: WIDTH - 2 * INSET, height: height - 2 * INSET };
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${WIDTH} ${height}`}
      width={WIDTH}
      height={height}
      xmlLang={lang}
      direction={dir}
      fontFamily={FONTS[locale]}
      fontSize="11"
      fill={ink.colour.text}
    >
      <title>{title}</title>
      <clipPath id="screen">
        <rect {...screen} rx="35.2" />
      </clipPath>
      <rect width={WIDTH} height={height} rx="41.6" fill={BRAND.black} />
      <g clipPath="url(#screen)">
        <rect {...screen} fill={ink.colour.screen} />
        {children}
      </g>
      <StatusBar ink={ink} />
    </svg>
  );
}

/** The time, the camera's island and the signal and battery, as the HTML drawing laid them out. */
function StatusBar({ ink: { side, colour } }: { ink: Ink }) {
  return (
    <>
      <text
        x={side.x(55)}
        y="30"
        direction="ltr"
        textAnchor="middle"
        fontSize="13"
        fontWeight="600"
      >
        9:41
      </text>
      <rect x="104" y="15" width="80" height="22" rx="11" fill={BRAND.black} />
      <g transform={`translate(${side.x(233) - 22} 20)`} stroke={colour.text} fill="none">
        <path d="M1.5 12V9M6 12V7m4.5 5V4.5M15 12V2" strokeWidth="3" />
        <path d="M24 6h16" strokeWidth="7" />
        <rect x="21.5" y=".5" width="22" height="11" rx="3" opacity=".4" />
      </g>
    </>
  );
}
