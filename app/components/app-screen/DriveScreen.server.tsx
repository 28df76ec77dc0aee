import type { Copy } from "~/content/copy.server";
import { CROP, type Ink, MAP_SHIFT } from "./layout";
import { BRAND, type Palette } from "./palette";

/**
 * North on Sheikh Zayed Road, heading up, towards an interchange: the Gulf to the north-west,
 * the route in teal taking the exit ramp east, a speed camera ahead of the car. Drawn in 180x390
 * and scaled to the screen; edges are black at low opacity, so they darken either scheme's land.
 */
function DriveMap({ road, colour, shift }: { road?: string; colour: Palette; shift: number }) {
  const route = "M103 262V228C103 194 118 172 150 172H250";
  const ramps = "M74 90c0 36-12 60-44 60m120 0c-32 0-44-24-44-60M30 172c32 0 44 24 44 60";
  return (
    <g transform={`translate(6 ${6 - shift}) scale(1.53333)`} fill="none">
      <rect width="180" height="390" fill={colour.land} />
      <path d="M0 0h84C64 44 36 70 0 80z" fill="#38bdf8" fillOpacity=".3" />
      <g transform="rotate(12 90 230)" stroke={colour.road}>
        <path d="M-80 110H260M-80 300H260M54-80V520M132-80V520" strokeWidth="3" />
        <path d={ramps + route} stroke={BRAND.black} strokeOpacity=".2" strokeWidth="10" />
        <path d={ramps + route} strokeWidth="8" />
        <path d="M-80 161H260" stroke={BRAND.black} strokeOpacity=".2" strokeWidth="24" />
        <path d="M-80 161H260" strokeWidth="21" />
        <path d="M90-80V520" stroke={BRAND.sand} strokeWidth="43" />
        <path d="M90-80V520" stroke={colour.highway} strokeWidth="40" />
        <path
          d="M75-80V520m5 0V-80m5 0V520m10 0V-80m5 0V520m5 0V-80"
          stroke={BRAND.white}
          strokeOpacity=".6"
          strokeDasharray="5 5"
        />
        <path d="M90-80V520" stroke={BRAND.sand} strokeWidth="1.5" />
        <path d={route} stroke={BRAND.tealDark} strokeWidth="7.5" />
        <path d={route} stroke={BRAND.teal} strokeWidth="5" />
        <circle
          cx="103"
          cy="212"
          r="5.5"
          fill={BRAND.alert}
          stroke={BRAND.white}
          strokeWidth="1.8"
        />
        <circle cx="103" cy="262" r="7.5" fill={BRAND.white} stroke={BRAND.tealDark} />
        <path d="M103 257l4 9-4-2-4 2z" fill={BRAND.navy} stroke="none" />
        {road === undefined ? null : (
          <text
            x="-236"
            y="83"
            transform="rotate(-90)"
            textAnchor="middle"
            fontSize="7"
            fontWeight="600"
            paintOrder="stroke"
            strokeWidth="2.4"
            fill={colour.roadLabel}
          >
            {road}
          </text>
        )}
      </g>
    </g>
  );
}

/** The camera alert and the limit against the speed, over the map. */
function Alert({ copy, ink: { side, colour } }: { copy: Copy["appScreen"]["drive"]; ink: Ink }) {
  return (
    <>
      <rect x="16" y="50" width="256" height="52" rx="16" fill={colour.alertCard} />
      <g transform={`translate(${side.box(26, 32)} 60) scale(.8889)`}>
        <rect width="36" height="36" rx="9" fill={BRAND.alert} />
        <path
          d="M9 14h18v11H9zm6-3h6l1 3h-8zm3 5a3 3 0 1 0 0 7 3 3 0 1 0 0-7"
          fillRule="evenodd"
          fill={BRAND.white}
        />
      </g>
      <text x={side.x(66)} y="73" fontSize="13" fontWeight="700" fill={BRAND.white}>
        {copy.alert}
      </text>
      <text x={side.x(66)} y="87.5" fill={colour.alertNote}>
        {copy.alertNote}
      </text>
      <circle
        cx={side.x(38)}
        cy="132"
        r="20"
        fill={BRAND.white}
        stroke={BRAND.alert}
        strokeWidth="4"
      />
      <text
        x={side.x(38)}
        y="136.6"
        textAnchor="middle"
        fontSize="13"
        fontWeight="800"
        fill="#06121f"
      >
        {copy.limit}
      </text>
      <rect x={side.box(66, 96)} y="115" width="96" height="34" rx="17" fill={BRAND.alert} />
      <text
        x={side.x(114)}
        y="138"
        textAnchor="middle"
        fontSize="17"
        fontWeight="800"
        fill={BRAND.white}
      >
        {copy.speed} <tspan fontSize="10">{copy.unit}</tspan>
      </text>
    </>
  );
}

/** The sheet at the bottom: time to the destination, the drive's score, the cashback so far. */
function Sheet({ copy, ink: { side, colour } }: { copy: Copy["appScreen"]["drive"]; ink: Ink }) {
  const ring = { cx: side.x(237.6), cy: 511.8, r: 21.2, fill: "none", strokeWidth: 4.5 };
  return (
    <>
      <path d="M6 496a24 24 0 0 1 24-24h228a24 24 0 0 1 24 24v128H6z" fill={colour.sheet} />
      <text x={side.x(22)} y="520" fontSize="22" fontWeight="700" fill={colour.accent}>
        {copy.eta}
      </text>
      <text x={side.x(22)} y="537.5" fontSize="12" fill={colour.muted}>
        {copy.destination}
      </text>
      <circle {...ring} stroke={colour.muted} strokeOpacity=".2" />
      <circle
        {...ring}
        stroke={BRAND.teal}
        pathLength="100"
        strokeDasharray={`${copy.score} 100`}
        strokeLinecap="round"
        transform={`rotate(-90 ${ring.cx} ${ring.cy})`}
      />
      <text x={ring.cx} y="518" textAnchor="middle" fontSize="17" fontWeight="700">
        {copy.score}
      </text>
      <text x={ring.cx} y="549" textAnchor="middle" fontSize="10" fill={colour.muted}>
        {copy.scoreLabel}
      </text>
      <rect x={side.box(22, 244)} y="564" width="244" height="30" rx="12" fill={colour.chip} />
      <circle cx={side.x(40)} cy="579" r="6" fill={BRAND.sand} />
      <text x={side.x(54)} y="583" fontWeight="600" fill={colour.chipText}>
        {copy.cashback}
      </text>
    </>
  );
}

/**
 * On the road: the hero's screen. Cropped (layout.ts, CROP), the sheet moves up under the alert
 * and the map with it, so the map is what gives way; its road name, which would sit under the
 * alert there, is left out.
 */
export function DriveScreen({
  copy,
  ink,
  cropped = false,
}: {
  copy: Copy["appScreen"]["drive"];
  ink: Ink;
  cropped?: boolean;
}) {
  return (
    <>
      <DriveMap
        road={cropped ? undefined : copy.road}
        colour={ink.colour}
        shift={cropped ? MAP_SHIFT : 0}
      />
      <Alert copy={copy} ink={ink} />
      <g transform={cropped ? `translate(0 -${CROP})` : undefined}>
        <Sheet copy={copy} ink={ink} />
      </g>
    </>
  );
}
