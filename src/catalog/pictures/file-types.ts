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

/** Where the markup that starts at `at` (a declaration, processing instruction, comment or DOCTYPE) ends, or -1. */
function prologueEnd(text: string, at: number): number {
  const close = (marker: string, from = at) => {
    const found = text.indexOf(marker, from);
    return found < 0 ? -1 : found + marker.length;
  };
  if (text.startsWith('<?', at)) return close('?>');
  if (text.startsWith('<!--', at)) return close('-->');
  if (text.slice(at, at + 9).toUpperCase() !== '<!DOCTYPE') return -1;
  const subset = text.indexOf('[', at);
  const end = text.indexOf('>', at);
  if (subset < 0 || subset > end) return close('>');
  const subsetEnd = close(']', subset);
  return subsetEnd < 0 ? -1 : close('>', subsetEnd);
}

/**
 * Whether `text` starts as an SVG document: its root `<svg` after whatever XML may come first.
 * Only the start is recognised here; `svgRefusal` judges the whole.
 */
function startsAsSvg(text: string): boolean {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
    if (/^<svg[\s>/]/i.test(text.slice(at, at + 5))) return true;
    at = prologueEnd(text, at);
    if (at < 0) return false;
  }
}

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
  if (startsAsSvg(bytes.toString('utf8', 0, 4096))) return 'image/svg+xml';
  return undefined;
}
