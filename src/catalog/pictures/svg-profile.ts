/**
 * What a contributed SVG may hold: the elements and attributes of a static picture. Drawn from
 * the SVG 1.1 and 2 element and attribute indexes, and close to DOMPurify's SVG profile, with
 * everything left out that can run script, animate, or load another document: `script`,
 * `foreignObject`, `image`, `feImage`, the animation elements, fonts and cursors. Names are
 * compared exactly, as XML does.
 */

export const SVG_NS = 'http://www.w3.org/2000/svg';
export const XLINK_NS = 'http://www.w3.org/1999/xlink';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

const FILTER_PRIMITIVES = [
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feComposite',
  'feConvolveMatrix',
  'feDiffuseLighting',
  'feDisplacementMap',
  'feDistantLight',
  'feDropShadow',
  'feFlood',
  'feFuncA',
  'feFuncB',
  'feFuncG',
  'feFuncR',
  'feGaussianBlur',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
  'fePointLight',
  'feSpecularLighting',
  'feSpotLight',
  'feTile',
  'feTurbulence',
];

/** Elements of the SVG namespace a picture may use. */
export const SVG_ELEMENTS: ReadonlySet<string> = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'switch',
  'a',
  'title',
  'desc',
  'metadata',
  'style',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'marker',
  'filter',
  ...FILTER_PRIMITIVES,
]);

/** Attributes in no namespace: geometry, presentation, filters, text, identity and accessibility. */
export const SVG_ATTRIBUTES: ReadonlySet<string> = new Set([
  // identity, accessibility, the document
  ...['id', 'class', 'lang', 'tabindex', 'role', 'focusable', 'version', 'baseProfile'],
  // geometry
  ...['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr', 'dx', 'dy', 'z'],
  ...['width', 'height', 'd', 'points', 'pathLength', 'transform', 'transform-origin', 'viewBox'],
  ...['preserveAspectRatio', 'offset', 'rotate', 'href'],
  // presentation (`style` and every value that can hold url() are checked as CSS)
  ...['style', 'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-linecap'],
  ...['stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'opacity', 'color'],
  ...['display', 'visibility', 'overflow', 'clip', 'clip-path', 'clip-rule', 'mask', 'mask-type', 'filter'],
  ...['marker-start', 'marker-mid', 'marker-end', 'stop-color', 'stop-opacity', 'paint-order', 'vector-effect'],
  ...['shape-rendering', 'text-rendering', 'image-rendering', 'color-rendering', 'color-interpolation'],
  ...['color-interpolation-filters', 'flood-color', 'flood-opacity', 'lighting-color', 'mix-blend-mode'],
  ...['isolation', 'pointer-events'],
  // text
  ...['font-family', 'font-size', 'font-size-adjust', 'font-stretch', 'font-style', 'font-variant'],
  ...['font-weight', 'text-anchor', 'text-decoration', 'dominant-baseline', 'alignment-baseline'],
  ...['baseline-shift', 'letter-spacing', 'word-spacing', 'writing-mode', 'direction', 'unicode-bidi'],
  ...['textLength', 'lengthAdjust', 'startOffset', 'method', 'spacing', 'side', 'systemLanguage'],
  // paint servers, clips, masks, markers, patterns
  ...['gradientUnits', 'gradientTransform', 'spreadMethod', 'patternUnits', 'patternContentUnits'],
  ...['patternTransform', 'clipPathUnits', 'maskUnits', 'maskContentUnits', 'markerUnits', 'markerWidth'],
  ...['markerHeight', 'refX', 'refY', 'orient'],
  // filters
  ...['filterUnits', 'primitiveUnits', 'in', 'in2', 'result', 'type', 'values', 'mode', 'operator'],
  ...['k1', 'k2', 'k3', 'k4', 'stdDeviation', 'edgeMode', 'scale', 'xChannelSelector', 'yChannelSelector'],
  ...['baseFrequency', 'numOctaves', 'seed', 'stitchTiles', 'radius', 'order', 'kernelMatrix', 'divisor'],
  ...['bias', 'targetX', 'targetY', 'kernelUnitLength', 'preserveAlpha', 'surfaceScale', 'diffuseConstant'],
  ...['specularConstant', 'specularExponent', 'azimuth', 'elevation', 'pointsAtX', 'pointsAtY', 'pointsAtZ'],
  ...['limitingConeAngle', 'tableValues', 'slope', 'intercept', 'amplitude', 'exponent'],
  // the style element
  'media',
]);

/** Attributes in the XML and XLink namespaces, by local name. */
export const NAMESPACED_ATTRIBUTES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [XML_NS, new Set(['space', 'lang'])],
  [XLINK_NS, new Set(['href', 'title'])],
]);

/** Why an element a static picture leaves out is dangerous, for the contributor reading the refusal. */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  script: 'it runs script',
  foreignObject: 'it embeds HTML',
  image: 'it loads another document',
  feImage: 'it loads another document',
  animate: 'animation can rewrite links and attributes',
  animateMotion: 'animation can rewrite links and attributes',
  animateTransform: 'animation can rewrite links and attributes',
  animateColor: 'animation can rewrite links and attributes',
  set: 'animation can rewrite links and attributes',
  discard: 'animation can rewrite the picture',
  mpath: 'it belongs to animation',
  handler: 'it runs script',
  listener: 'it attaches event handlers',
  iframe: 'it loads another document',
  cursor: 'it loads another document',
  'font-face': 'it loads another document',
  tref: 'it copies text from another document',
};
