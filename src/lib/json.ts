import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** Where and why a JSON text is not valid JSON. */
export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
}

const EXPLAINED: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':'",
  CommaExpected: "expected ','",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: 'unexpected content after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
};

function locate(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * The offset of the comma that ends a list or object, when the parser's error at `offset` is
 * the closing `]` or `}` right after one (only JSON whitespace between them): the parser
 * reports the closer, but the mistake is the comma.
 */
function trailingComma(text: string, offset: number): number | undefined {
  if (text[offset] !== ']' && text[offset] !== '}') return undefined;
  let before = offset - 1;
  while (before >= 0 && ' \t\r\n'.includes(text[before]!)) before--;
  return text[before] === ',' ? before : undefined;
}

/**
 * Parses strict JSON. On failure, a second, slower parser finds the first error's line and
 * column, which `JSON.parse` does not reliably report.
 *
 * @example
 * parseJson('[1,]');
 * // { error: { line: 1, column: 3, message: "trailing comma before ']': JSON allows none, remove it" } }
 */
export function parseJson(text: string): { value: unknown } | { error: JsonSyntaxError } {
  // Editors on some systems save a byte-order mark, which JSON.parse rejects.
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { value: JSON.parse(json) };
  } catch (cause) {
    const errors: ParseError[] = [];
    parse(json, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (!first) return { error: { line: 1, column: 1, message: (cause as Error).message } };
    const comma = trailingComma(json, first.offset);
    if (comma !== undefined)
      return {
        error: {
          ...locate(json, comma),
          message: `trailing comma before '${json[first.offset]}': JSON allows none, remove it`,
        },
      };
    const code = printParseErrorCode(first.error);
    return { error: { ...locate(json, first.offset), message: EXPLAINED[code] ?? code } };
  }
}
