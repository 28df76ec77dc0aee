import type { Copy } from "~/content/copy.server";
import type { Ink } from "./layout";
import { BRAND } from "./palette";

type ReportCopy = Copy["appScreen"]["report"];

/** A card across the screen, 18 in from each side. */
function Card({ y, height, fill, ink }: { y: number; height: number; fill: string; ink: Ink }) {
  return <rect x={ink.side.box(18, 252)} y={y} width="252" height={height} rx="16" fill={fill} />;
}

/** The weeks' bars at (score − 50) × 1.6 % of the chart: 71, the halfway 79.5, and 88. */
const BARS = [74.9, 103.5, 134.3];
const CHART_FLOOR = 333.7;

function ScoreChart({ copy, ink }: { copy: ReportCopy; ink: Ink }) {
  const { side, colour } = ink;
  const [first, last] = copy.scores;
  // Figures over the first and last weeks' bars only: the middle one is drawn, not claimed.
  const figures = [first, null, last];
  return (
    <>
      <Card y={100} height={262} fill={colour.card} ink={ink} />
      <text x={side.x(30)} y="122.5" fill={colour.muted}>
        {copy.scoreLabel}
      </text>
      <rect x={side.box(218, 40)} y="112" width="40" height="18" rx="9" fill={BRAND.tealDark} />
      <text
        x={side.x(238)}
        y="125"
        direction="ltr"
        textAnchor="middle"
        fontWeight="700"
        fill={BRAND.white}
      >
        +{last - first}
      </text>
      {BARS.map((height, week) => {
        const left = 30 + 80 * week;
        const top = CHART_FLOOR - height;
        const figure = figures[week];
        return (
          <g key={left} textAnchor="middle">
            {figure === null ? null : (
              <text x={side.x(left + 34)} y={top - 9} fontSize="15" fontWeight="700">
                {figure}
              </text>
            )}
            <rect
              x={side.box(left, 68)}
              y={top}
              width="68"
              height={height}
              rx="8"
              fill={week === 2 ? colour.barNow : colour.bar}
            />
            <text x={side.x(left + 34)} y="347" fontSize="10" fill={colour.muted}>
              {copy.weeks[week]}
            </text>
          </g>
        );
      })}
    </>
  );
}

/** Two habits, week 1 against week 3: the figures at the end side, an arrow between them. */
function Metrics({ copy, ink }: { copy: ReportCopy; ink: Ink }) {
  const { side, colour } = ink;
  return (
    <>
      <Card y={372} height={93} fill={colour.card} ink={ink} />
      {copy.metrics.map((metric, row) => {
        const y = 34.2 * row;
        return (
          <g key={metric.label} fontWeight="500">
            <text x={side.x(30)} y={398.5 + y}>
              {metric.label}
            </text>
            <text x={side.x(30)} y={411.3 + y} fontSize="10" fill={colour.muted}>
              {metric.note}
            </text>
            <g textAnchor="end" fontSize="20" fontWeight="700">
              <text x={side.x(224)} y={407.5 + y} fill={colour.before}>
                {metric.before}
              </text>
              <text x={side.x(258)} y={407.5 + y} fill={colour.accent}>
                {metric.after}
              </text>
            </g>
            <path
              d="M1 6h9M7 2.5 10.5 6 7 9.5"
              transform={`translate(${side.x(228)} ${395.4 + y})${side.rtl ? " scale(-1 1)" : ""}`}
              fill="none"
              stroke={colour.text}
              strokeWidth="1.8"
            />
          </g>
        );
      })}
    </>
  );
}

/** After three weeks: the weekly report, the safety section's screen. */
export function ReportScreen({ copy, ink }: { copy: ReportCopy; ink: Ink }) {
  const { side, colour } = ink;
  return (
    <>
      <text x={side.x(22)} y="64" fill={colour.muted}>
        {copy.title}
      </text>
      <text x={side.x(22)} y="84.5" fontSize="18" fontWeight="700">
        {copy.week}
      </text>
      <ScoreChart copy={copy} ink={ink} />
      <Metrics copy={copy} ink={ink} />
      <Card y={475} height={52} fill={colour.chip} ink={ink} />
      <circle cx={side.x(34)} cy="501" r="4" fill={BRAND.sand} />
      <text fontWeight="500" fill={colour.tipText}>
        {copy.tip.map((line, index) => (
          <tspan key={line} x={side.x(46)} y={497.3 + 13.75 * index}>
            {line}
          </tspan>
        ))}
      </text>
      <Card y={536.3} height={62} fill={BRAND.tealDark} ink={ink} />
      <text x={side.x(30)} y="558.5" fill={BRAND.sand100}>
        {copy.cashback}
      </text>
      <rect x={side.box(178, 80)} y="548" width="80" height="15" rx="7.5" fill={BRAND.white} />
      <text x={side.x(218)} y="559.2" textAnchor="middle" fontWeight="700" fill={BRAND.tealDark}>
        {copy.upTo}
      </text>
      <text x={side.x(30)} y="581" fontSize="16" fontWeight="700" fill={BRAND.white}>
        {copy.cashbackValue}
      </text>
    </>
  );
}
