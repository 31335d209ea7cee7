/** What every generated picture is drawn with: a seeded random source, colours and the SVG frame. */

/**
 * A deterministic random source for one picture: the same seed (a record's uuid and variant)
 * draws the same picture on every boot and every instance.
 *
 * @example
 * const random = seededRandom('9df6…#0'); random(); // 0.73…, the same every time
 */
export function seededRandom(seed: string): () => number {
  let state = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 0x01000193);
  return () => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [from, to] drawn from `random`. */
export function between(random: () => number, from: number, to: number): number {
  return from + Math.floor(random() * (to - from + 1));
}

/** A colour of hue `hue` (degrees), as CSS. */
export function hsl(hue: number, saturation: number, lightness: number): string {
  return `hsl(${Math.round(hue) % 360} ${saturation}% ${lightness}%)`;
}

/** Text made safe inside an SVG element or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A top-to-bottom gradient named `id`, from one colour to another. */
export function gradient(id: string, from: string, to: string): string {
  return (
    `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${from}"/>` +
    `<stop offset="1" stop-color="${to}"/></linearGradient>`
  );
}

/** A line of text centred at `x`, shrunk so that `text` fits in `width`. */
export function caption(text: string, x: number, y: number, width: number, size: number, fill = '#fff'): string {
  const fitted = Math.max(9, Math.min(size, Math.floor((width / Math.max(text.length, 1)) * 1.8)));
  return `<text x="${x}" y="${y}" font-size="${fitted}" text-anchor="middle" fill="${fill}">${escapeXml(text)}</text>`;
}

/**
 * The SVG document of a picture: its size, its accessible name (`<title>`, also what
 * screen readers announce through `aria-labelledby`) and what is drawn.
 */
export function svgDocument(width: number, height: number, title: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="` +
    `${height}" role="img" aria-labelledby="t" font-family="sans-serif">` +
    `<title id="t">${escapeXml(title)}</title>${body}</svg>`
  );
}
