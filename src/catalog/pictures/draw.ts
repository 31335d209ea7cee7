import type { FamilyName } from '../families.ts';
import { between, caption, gradient, hsl, seededRandom, svgDocument } from './canvas.ts';

/** What a generated picture shows of a record: its name and a short line about it. */
export interface PictureSubject {
  family: FamilyName;
  uuid: string;
  name: string;
  /** A second line (an episode's "S1 · E3", a season's number), or empty. */
  detail: string;
}

/** What each family's pictures are, by the words their titles use. */
const KIND: Record<FamilyName, string> = {
  actors: 'Portrait of actor',
  characters: 'Portrait of character',
  episodes: 'Still from episode',
  seasons: 'Poster of',
  overview: 'Poster of the series',
  games: 'Cover of game',
  soundtracks: 'Cover of soundtrack',
  locations: 'Place card of',
};

const SKIN = ['#f1c7a5', '#e0ac83', '#c68b5f', '#9a6440', '#6f4429', '#f5d6bf'];

function portrait(s: PictureSubject, random: () => number): [number, number, string] {
  const hue = between(random, 0, 359);
  const skin = SKIN[between(random, 0, SKIN.length - 1)]!;
  const hair = hsl(between(random, 10, 40), between(random, 20, 60), between(random, 10, 45));
  const band = s.family === 'actors' ? 'ACTOR' : 'CHARACTER';
  const long =
    random() < 0.5
      ? `<rect x="66" y="108" width="108" height="${between(random, 40, 90)}" rx="30" fill="${hair}"/>`
      : '';
  const body =
    `<defs>${gradient('b', hsl(hue, 45, 30), hsl(hue + 40, 55, 60))}</defs>` +
    `<rect width="240" height="300" fill="url(#b)"/>` +
    `${long}<path d="M36 300C36 214 204 214 204 300Z" fill="${hsl(hue + 180, 35, 35)}"/>` +
    `<rect x="104" y="160" width="32" height="40" fill="${skin}"/>` +
    `<circle cx="120" cy="122" r="50" fill="${skin}"/><path d="M70 118a50 50 0 0 1 100 ` +
    `0q-50-${between(random, 18, 40)}-100 0Z" fill="${hair}"/>` +
    `<circle cx="101" cy="126" r="5" fill="#222"/><circle cx="139" cy="126" r="5" fill="#222"/>` +
    `<path d="M104 148q16 ${between(random, 4, 12)} 32 0" stroke="#7a3b2e" stroke-width="3" fill="none"/>` +
    `<rect y="238" width="240" height="62" fill="#0009"/>` +
    `${caption(band, 120, 258, 220, 12, '#ddd')}${caption(s.name, 120, 286, 220, 20)}`;
  return [240, 300, body];
}

function still(s: PictureSubject, random: () => number): [number, number, string] {
  const hue = between(random, 180, 260);
  const sun = between(random, 40, 280);
  let waves = '';
  for (let y = 122; y < 180; y += 14)
    waves +=
      `<path d="M0 ${y}q20-6 40 0t40 0t40 0t40 0t40 0t40 0t40 0t40 0" stroke="${hsl(hue, 40, 75)}" ` +
      `stroke-width="2" fill="none" opacity=".6"/>`;
  const body =
    `<defs>${gradient('k', hsl(hue + between(random, 0, 120), 60, 35), hsl(between(random, 10, 50), 80, 70))}` +
    `</defs><rect width="320" height="180" fill="url(#k)"/>` +
    `<circle cx="${sun}" cy="${between(random, 60, 100)}" r="${between(random, 12, 24)}" fill="#fff3c4"/>` +
    `<rect y="110" width="320" height="70" fill="${hsl(hue, 50, 25)}"/>${waves}` +
    `<rect x="${between(random, 230, 280)}" y="62" width="10" height="48" fill="#eee"/>` +
    `<rect y="140" width="320" height="40" fill="#0008"/>` +
    `${caption(s.detail, 160, 154, 300, 11, '#ddd')}${caption(s.name, 160, 172, 300, 15)}`;
  return [320, 180, body];
}

function poster(s: PictureSubject, random: () => number): [number, number, string] {
  const hue = between(random, 0, 359);
  let lines = '';
  for (let i = 0; i < 5; i++)
    lines +=
      `<path d="M0 ${190 + i * 12}h200" stroke="${hsl(hue + 20, 50, 70)}" stroke-width="${5 - i}" ` + `opacity=".7"/>`;
  const body =
    `<defs>${gradient('p', hsl(hue, 60, 18), hsl(hue + 60, 60, 50))}</defs>` +
    `<rect width="200" height="300" fill="url(#p)"/>` +
    `<circle cx="100" cy="${between(random, 120, 160)}" r="${between(random, 50, 70)}" ` +
    `fill="${hsl(hue + 30, 80, 75)}" opacity=".8"/>${lines}` +
    `${caption(s.detail, 100, 90, 180, 64)}<rect y="244" width="200" height="56" ` +
    `fill="#000a"/>${caption(s.name, 100, 278, 184, 18)}`;
  return [200, 300, body];
}

function cover(s: PictureSubject, random: () => number): [number, number, string] {
  const hue = between(random, 0, 359);
  let art = '';
  if (s.family === 'soundtracks') {
    art = `<circle cx="120" cy="104" r="80" fill="#111"/>`;
    for (let r = 74; r > 34; r -= 8) art += `<circle cx="120" cy="104" r="${r}" fill="none" stroke="#333"/>`;
    art +=
      `<circle cx="120" cy="104" r="28" fill="${hsl(hue + 180, 70, 60)}"/>` +
      `<circle cx="120" cy="104" r="4" fill="#eee"/>`;
  } else {
    for (let i = 0; i < 36; i++) {
      if (random() < 0.45)
        art +=
          `<rect x="${48 + (i % 6) * 24}" y="${24 + Math.floor(i / 6) * 24}" width="22" height="22" ` +
          `fill="${hsl(hue + between(random, 0, 90), 70, 55)}"/>`;
    }
  }
  const body =
    `<defs>${gradient('c', hsl(hue, 50, 25), hsl(hue + 50, 60, 45))}</defs>` +
    `<rect width="240" height="240" fill="url(#c)"/>${art}<rect y="188" width="240" height="52" ` +
    `fill="#000a"/>${caption(s.detail, 120, 204, 220, 11, '#ddd')}${caption(s.name, 120, 228, 220, 18)}`;
  return [240, 240, body];
}

function placeCard(s: PictureSubject, random: () => number): [number, number, string] {
  const hue = between(random, 80, 200);
  let contours = '';
  for (let r = 1; r <= 5; r++)
    contours +=
      `<ellipse cx="${between(random, 120, 200)}" cy="${between(random, 60, 100)}" rx="${r * 30}" ry="${r * 18}" ` +
      `fill="none" stroke="${hsl(hue, 30, 55)}"/>`;
  const pin =
    `<g transform="translate(${between(random, 130, 190)} ${between(random, 50, 80)})">` +
    `<path d="M0 0c-14 0-24 10-24 23 0 17 24 40 24 40s24-23 24-40C24 10 14 0 0 0Z" fill="#d8412f"/>` +
    `<circle cy="23" r="8" fill="#fff"/></g>`;
  const body =
    `<rect width="320" height="200" rx="12" fill="${hsl(hue, 35, 88)}"/>${contours}${pin}` +
    `<rect y="152" width="320" height="48" fill="${hsl(hue, 40, 25)}"/>${caption(s.name, 160, 182, 300, 18)}`;
  return [320, 200, body];
}

const DRAW: Record<FamilyName, (s: PictureSubject, random: () => number) => [number, number, string]> = {
  actors: portrait,
  characters: portrait,
  episodes: still,
  seasons: poster,
  overview: poster,
  games: cover,
  soundtracks: cover,
  locations: placeCard,
};

/**
 * The picture the server draws for a record, as SVG text: a portrait for actors and
 * characters, a still for episodes, a poster for seasons and the series, a cover for games
 * and soundtracks, a place card for locations. The same subject and variant always draw the
 * same picture (seeded by the uuid); its `<title>` names the record. Each is under 4 KB.
 *
 * @example
 * drawPicture({ family: 'characters', uuid: '9df6…', name: 'Iris Valente', detail: '' }, 0);
 * // '<svg …><title id="t">Portrait of character Iris Valente</title>…</svg>'
 */
export function drawPicture(subject: PictureSubject, variant: number): string {
  const [width, height, body] = DRAW[subject.family](subject, seededRandom(`${subject.uuid}#${variant}`));
  const title = `${KIND[subject.family]} ${subject.name}` + (variant > 0 ? ` (picture ${variant})` : '');
  return svgDocument(width, height, title, body);
}
