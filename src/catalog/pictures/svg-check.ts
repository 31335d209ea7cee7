import { SaxesParser, type SaxesTagNS } from 'saxes';
import { LEFT_OUT, NAMESPACED_ATTRIBUTES, SVG_ATTRIBUTES, SVG_ELEMENTS, SVG_NS, XMLNS_NS } from './svg-profile.ts';

/** No static picture nests deeper; the parser's namespace lookups cost the depth for every element. */
const MAX_DEPTH = 256;

/** Thrown from the parser's handlers: the first thing the walk refuses. */
class Refusal extends Error {}

/** A value as a refusal quotes it: one line, at most 60 characters. */
const quoted = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);

/** CSS that could load or run something: every url() but a fragment, and the ways around a plain reading. */
const CSS_HAZARDS: readonly [RegExp, string][] = [
  [/\\/, 'a CSS escape (\\), which can hide a url( or an @import'],
  [/@import/i, 'an @import'],
  [/(?:^|[^a-z-])(?:-webkit-)?image(?:-set)?\(|cross-fade\(|element\(/i, 'an image function that loads a URL'],
  [/expression\s*\(|-moz-binding|behavior\s*:/i, 'a scripting extension (expression(), -moz-binding, behavior)'],
];

/**
 * Why a piece of CSS (a `style` attribute or element, or a presentation attribute, which
 * browsers read as CSS) is not part of a static picture, or undefined. Comments are dropped
 * first, so that no comment splits a word the check looks for.
 */
function cssHazard(css: string): string | undefined {
  const plain = css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '');
  const hazard = CSS_HAZARDS.find(([pattern]) => pattern.test(plain))?.[1];
  if (hazard) return hazard;
  const outside = plain
    .split(/url\(/i)
    .slice(1)
    .some((argument) => !/^['"]?#/.test(argument.trimStart()) && !/^['"]\s+#/.test(argument.trimStart()));
  return outside ? 'a url() that is not a fragment such as url(#shade)' : undefined;
}

function checkAttributes(tag: SaxesTagNS): void {
  const element = `<${tag.name}>`;
  for (const attribute of Object.values(tag.attributes)) {
    const { name, uri, local, value } = attribute;
    const named = `attribute ${name}= on ${element}`;
    if (uri === XMLNS_NS) continue; // a namespace declaration; the elements and attributes using it are checked
    const allowed =
      uri === ''
        ? SVG_ATTRIBUTES.has(name) || /^(?:aria|data)-[a-z][a-z0-9-]*$/.test(name)
        : NAMESPACED_ATTRIBUTES.get(uri)?.has(local) === true;
    if (!allowed) {
      const why = /^on/i.test(local) ? ': event handlers run script' : '';
      throw new Refusal(`${named} is not part of a static picture${why}`);
    }
    if (local === 'href' && !value.startsWith('#'))
      throw new Refusal(
        `${named} points outside the picture (${quoted(value)}): only a fragment of the picture, such as ` +
          `"#shape", may be named`,
      );
    const hazard = name.startsWith('aria-') ? undefined : cssHazard(value);
    if (hazard) throw new Refusal(`${named} holds ${hazard}: ${quoted(value)}`);
  }
}

function checkElement(tag: SaxesTagNS, root: boolean): void {
  const element = `element <${tag.name}>`;
  if (tag.uri !== SVG_NS) {
    throw new Refusal(
      tag.uri
        ? `${element} is in namespace ${tag.uri}: a picture holds SVG elements only (${SVG_NS})`
        : `${element} is in no namespace: a picture's elements are SVG's (xmlns="${SVG_NS}")`,
    );
  }
  if (root && tag.local !== 'svg') throw new Refusal(`${element} is the root: a picture's root is <svg>`);
  if (!SVG_ELEMENTS.has(tag.local)) {
    const why = LEFT_OUT[tag.local];
    throw new Refusal(`${element} is not part of a static picture${why ? `: ${why}` : ''}`);
  }
  checkAttributes(tag);
}

/**
 * Why an SVG is refused, or undefined when it is a static picture: it is parsed as XML (saxes,
 * strict and namespace-aware) and walked from start to end, and the first thing outside the
 * profile of `svg-profile.ts` is named. Refused: text that is not well-formed XML, a DOCTYPE
 * (and so any entity), processing instructions, elements outside the SVG namespace or the
 * allow-list (script, foreignObject, animation...), attributes outside it (event handlers...),
 * any `href` but a fragment, and CSS (in `style` and in every attribute) that could load or
 * run something.
 *
 * @example
 * svgRefusal('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
 * // 'attribute onload= on <svg> is not part of a static picture: event handlers run script'
 */
export function svgRefusal(text: string): string | undefined {
  const parser = new SaxesParser({ xmlns: true });
  let depth = 0;
  // The text of an open <style>, gathered whole: comments and CDATA sections may cut it anywhere.
  let style: string | undefined;
  parser.on('doctype', () => {
    throw new Refusal('a DOCTYPE is not allowed in a picture (it can declare entities and load a DTD): remove it');
  });
  parser.on('processinginstruction', ({ target }) => {
    throw new Refusal(`processing instruction <?${target}?> is not allowed in a picture`);
  });
  parser.on('opentag', (tag) => {
    if (style !== undefined) throw new Refusal(`element <${tag.name}> is inside a <style>, which holds CSS text only`);
    if (depth === MAX_DEPTH)
      throw new Refusal(`element <${tag.name}> nests deeper than ${MAX_DEPTH} elements, which no picture needs`);
    checkElement(tag, depth === 0);
    depth++;
    if (tag.uri === SVG_NS && tag.local === 'style') style = '';
  });
  parser.on('closetag', () => {
    depth--;
    const hazard = style === undefined ? undefined : cssHazard(style);
    if (hazard) throw new Refusal(`element <style> holds ${hazard}`);
    style = undefined;
  });
  const gather = (text: string) => {
    if (style !== undefined) style += text;
  };
  parser.on('text', gather);
  parser.on('cdata', gather);
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof Refusal) return error.message;
    return `not well-formed XML (${(error as Error).message})`;
  }
  return undefined;
}
