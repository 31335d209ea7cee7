import ts from 'typescript';

// The type of a filter parameter's value, from what the OpenAPI document says of the filter
// (`x-filter`: the field's kind and the operators it takes), for
// openapi-typescript's `transform`. The document's schema of every filter is a plain string
// (`v` alone is a valid value whatever v is); these types also say which operators and values
// a field takes, so `gender: 'female'` or `duration: '*long'` do not compile.

/** What the document says of one filter parameter (src/docs/parameters.ts writes it). */
export interface FilterInfo {
  type: 'string' | 'integer' | 'number' | 'date' | 'date-time';
  operators: string[];
}

/** A template literal type as its pieces: fixed text, or a `number` or `string` hole. */
type Piece = string | { hole: 'number' | 'string' };

const NUMBER: Piece[] = [{ hole: 'number' }];
const TEXT: Piece = { hole: 'string' };
const DAY: Piece[] = [...NUMBER, '-', ...NUMBER, '-', ...NUMBER];
const VALUE: Record<Exclude<FilterInfo['type'], 'string'>, Piece[]> = {
  integer: NUMBER,
  number: NUMBER,
  date: DAY,
  'date-time': [...DAY, 'T', TEXT],
};

/** The pieces of one operator's spelling (`>v`, `:a,b`, `a::b`…) for values written as `value`. */
function spelling(syntax: string, value: Piece[]): Piece[] {
  if (syntax.endsWith('a::b')) return [...value, '::', ...value];
  // One of, none of: a comma-separated list; a plain list `a,b` starts with a value.
  if (syntax.endsWith(':a,b')) return [syntax.slice(0, -3), TEXT];
  if (syntax === 'a,b') return [...value, ',', TEXT];
  // Contains, does not contain: any text.
  if (syntax.endsWith('*v')) return [syntax.slice(0, -1), TEXT];
  if (syntax.endsWith('v')) return [syntax.slice(0, -1), ...value];
  throw new Error(`no type for the filter operator '${syntax}': add its spelling to scripts/lib/client-filters.ts`);
}

const keyword = (hole: 'number' | 'string') =>
  ts.factory.createKeywordTypeNode(hole === 'number' ? ts.SyntaxKind.NumberKeyword : ts.SyntaxKind.StringKeyword);

/** A template literal type (`>${number}`) from its pieces. */
function template(pieces: Piece[]): ts.TypeNode {
  // texts[i] is the text before holes[i]; the last one follows the last hole.
  const texts = [''];
  const holes: ('number' | 'string')[] = [];
  for (const piece of pieces) {
    if (typeof piece === 'string') texts[texts.length - 1] += piece;
    else (holes.push(piece.hole), texts.push(''));
  }
  if (holes.length === 0) return ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(texts[0]!));
  const spans = holes.map((hole, i) => {
    const text = texts[i + 1]!;
    const after = i === holes.length - 1 ? ts.factory.createTemplateTail(text) : ts.factory.createTemplateMiddle(text);
    return ts.factory.createTemplateLiteralTypeSpan(keyword(hole), after);
  });
  return ts.factory.createTemplateLiteralType(ts.factory.createTemplateHead(texts[0]!), spans);
}

/**
 * The type of a filter's value: `string` for text (any text is a valid value), else the union
 * of the spellings of its operators, with a plain number too for a numeric field.
 *
 * @example
 * filterType({ type: 'integer', operators: ['v', '>v', 'a::b'] });
 * // number | `${number}` | `>${number}` | `${number}::${number}`
 */
export function filterType(filter: FilterInfo): ts.TypeNode {
  if (filter.type === 'string') return keyword('string');
  const value = VALUE[filter.type];
  const members = filter.operators.map((syntax) => template(spelling(syntax, value)));
  if (value === NUMBER) members.unshift(keyword('number'));
  return ts.factory.createUnionTypeNode(members);
}
