/** The media types of the pictures the server serves, by file extension. */
export const PICTURE_TYPES: Readonly<Record<string, string>> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** The largest picture file a catalog may hold: pictures are kept in memory. */
export const MAX_PICTURE_BYTES = 512 * 1024;

/** The media type of a picture path by its extension. */
export function pictureType(path: string): string {
  return PICTURE_TYPES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()]!;
}

const SVG_START =
  /^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE svg[^>[]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>]/i;

/**
 * The media type the bytes are, by their magic numbers (an SVG by its opening `<svg` element),
 * or undefined when they are none of the accepted types.
 *
 * @example
 * sniffPicture(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')); // 'image/svg+xml'
 */
export function sniffPicture(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (SVG_START.test(bytes.toString('utf8', 0, 4096))) return 'image/svg+xml';
  return undefined;
}

/** What an SVG must not hold, each with the reason a contributor reads. */
const UNSAFE_SVG: readonly [RegExp, string][] = [
  [/<script[\s>/]/i, 'a <script> element'],
  [/[\s"'/]on[a-z]+\s*=/i, 'an event handler attribute (on…=)'],
  [
    /\b(?:xlink:)?href\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i,
    'an href to another document (http:, //, javascript:, data:…)',
  ],
  [/\bsrc\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i, 'a src to another document'],
  [/url\(\s*["']?\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i, 'a url(…) to another document'],
  [/@import/i, 'a CSS @import'],
  [/<!ENTITY/i, 'an XML entity declaration'],
  [/<foreignObject[\s>/]/i, 'a <foreignObject> (HTML inside the picture)'],
];

/**
 * Why an SVG is refused (scripts, event handlers, external references), or undefined when it
 * is safe to serve. Only fragment references (`href="#a"`, `url(#g)`) may point anywhere.
 *
 * @example
 * unsafeSvg('<svg onload="alert(1)"/>'); // 'an event handler attribute (on…=)'
 */
export function unsafeSvg(text: string): string | undefined {
  return UNSAFE_SVG.find(([pattern]) => pattern.test(text))?.[1];
}
