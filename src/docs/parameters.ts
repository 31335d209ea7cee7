import {
  FAMILIES,
  relationsOf,
  servedFields,
  sortableFields,
  type Family,
  type FieldInfo,
} from '../catalog/families.ts';
import { FILTER_OPERATORS } from '../catalog/filter-operators.ts';
import { socialParameter } from './path-parameters.ts';
import type { Json } from './schemas.ts';
import { withArticle } from '../lib/text.ts';

/** What the parameter descriptions say about this deployment. */
export interface ParameterOptions {
  defaultLanguage: string;
  maxPageSize: number;
  /** Largest `size` of a CSV list (`CSV_MAX_ROWS`). */
  maxCsvRows: number;
}

/** A `$ref` to a component parameter. @example parameter('Page'); // { $ref: '#/components/parameters/Page' } */
export function parameter(name: string): Json {
  return { $ref: `#/components/parameters/${name}` };
}

/**
 * The parameters shared by many operations, for `components.parameters`.
 *
 * @example
 * componentParameters({ defaultLanguage: 'en-US', maxPageSize: 50, maxCsvRows: 100_000 }).Size.schema;
 * // { type: 'integer', minimum: 1, default: 10 }
 */
export function componentParameters({
  defaultLanguage,
  maxPageSize,
  maxCsvRows,
}: ParameterOptions): Record<string, Json> {
  const query = (name: string, description: string, schema: Json): Json => ({
    name,
    in: 'query',
    required: false,
    description,
    schema,
  });
  const path = (name: string, description: string, schema: Json): Json => ({
    name,
    in: 'path',
    required: true,
    description,
    schema,
  });
  return {
    Page: query('page', 'Page number, from 1. A page past the end is an empty list.', {
      type: 'integer',
      minimum: 1,
      default: 1,
    }),
    Size: query(
      'size',
      `Records per page. Above ${maxPageSize} (\`MAX_PAGE_SIZE\`) it is lowered to ${maxPageSize}; ` +
        `in CSV the most is ${maxCsvRows} (\`CSV_MAX_ROWS\`), a whole list in one file.`,
      { type: 'integer', minimum: 1, default: 10 },
    ),
    Format: query(
      'format',
      'What the list answers in: `json`, or `csv` (RFC 4180 with a header row, UTF-8 with a byte order mark, ' +
        'a list of texts one item per line in its cell, objects as JSON, a text a spreadsheet would run as a formula ' +
        "led by `'`). Without it: `text/csv` preferred in `Accept` means CSV, anything else JSON.",
      { type: 'string', enum: ['json', 'csv'], default: 'json' },
    ),
    Order: query('order', 'Sort direction, `asc` or `desc` (any case); needs `sort`.', {
      type: 'string',
      enum: ['asc', 'desc'],
    }),
    Language: query(
      'language',
      `Language of the translated fields (any case), e.g. \`pt-BR\`. Without it: the best match of ` +
        `\`Accept-Language\`, else \`${defaultLanguage}\`. ` +
        "A language the catalog does not have is a 400 listing those it has (they are the overview's `languages`).",
      { type: 'string', examples: [defaultLanguage] },
    ),
    AcceptLanguage: {
      name: 'Accept-Language',
      in: 'header',
      required: false,
      description: 'Used when there is no `language` parameter: q-values are honoured and `pt` matches `pt-BR`.',
      schema: { type: 'string', examples: ['pt-BR,pt;q=0.9'] },
    },
    TranslationLanguage: path('language', 'A language of the catalog (any case).', {
      type: 'string',
      examples: [defaultLanguage],
    }),
    Social: socialParameter(),
  };
}

const KIND_WORDS: Record<FieldInfo['kind'], string> = {
  string: 'text',
  integer: 'an integer',
  number: 'a number',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date-time (YYYY-MM-DDTHH:mm:ss.SSS)',
};

/** "a date (YYYY-MM-DD)", "a list of text", "the href of a season (or its bare uuid)"… */
function typeWords(field: FieldInfo): string {
  if (field.relation) {
    const singular = FAMILIES.get(field.relation)!.singular;
    return field.list
      ? `a list of hrefs of ${field.relation} (or their bare uuids)`
      : `the href of ${withArticle(singular)} (or its bare uuid)`;
  }
  return field.list ? `a list of ${KIND_WORDS[field.kind].replace(/^an? /, '')}` : KIND_WORDS[field.kind];
}

/** One filter parameter: the field's type and every operator that applies to it. */
function filterParameter(field: FieldInfo): Json {
  const operators = FILTER_OPERATORS.filter((o) => o.applies(field));
  const translated = field.translated ? ' Translated: matched in the served language.' : '';
  const list = operators.map((o) => `\`${o.syntax}\` ${field.list ? (o.onList ?? o.meaning) : o.meaning}`).join('; ');
  return {
    name: field.name,
    in: 'query',
    required: false,
    description: `Filter on \`${field.name}\`, ${typeWords(field)}.${translated} Operators: ${list}.`,
    schema: { type: 'string' },
    'x-filter': {
      type: field.kind,
      list: field.list,
      translated: field.translated,
      ...(field.relation ? { relation: field.relation } : {}),
      operators: operators.map((o) => o.syntax),
    },
  };
}

/** `q` of a family's list: which fields it searches, how words match, how hits are ranked. */
function searchParameter(family: Family): Json {
  const text = [...family.fields.values()].filter((f) => f.text).map((f) => `\`${f.name}\``);
  return {
    name: 'q',
    in: 'query',
    required: false,
    description:
      `Words to search for in ` +
      `${text.join(', ')}${family.translation ? ' (translated fields in the served language)' : ''}. ` +
      'Case and accents are ignored (`sao paulo` finds `São Paulo`); every word must match, each as the start of ' +
      'a word (`wil` finds `Willow`). ' +
      'Combines with filters, sort and paging; without `sort`, records whose names or titles hold more of the ' +
      'words come first, then file order.',
    schema: { type: 'string', examples: ['signal tide'] },
  };
}

/**
 * `expand` (when the family has relations) and `fields`, for lists and single records.
 *
 * @example
 * shapeParameters(family('episodes')).map((p) => p.name); // ['expand', 'fields']
 */
export function shapeParameters(family: Family): Json[] {
  const relations = relationsOf(family);
  const fields = servedFields(family);
  const expand: Json = {
    name: 'expand',
    in: 'query',
    required: false,
    description:
      `Comma-separated relations to replace by the related records themselves (one level deep, in the served ` +
      `language): ${relations.map((r) => `\`${r}\``).join(', ')}. ` +
      'An unknown relation is a 400 listing them.',
    schema: { type: 'string', examples: [relations.join(',')] },
    'x-values': relations,
  };
  const picked: Json = {
    name: 'fields',
    in: 'query',
    required: false,
    description:
      'Comma-separated fields to return; `uuid` and `href` always come too, and every other field is left out. ' +
      'An unknown field is a 400 listing them.',
    schema: { type: 'string', examples: [fields.slice(2, 4).join(',')] },
    'x-values': fields,
  };
  return relations.length ? [expand, picked] : [picked];
}

/**
 * Every parameter of a family's list: paging, sort, language (translated families), search,
 * shape and one filter per filterable field.
 *
 * @example
 * listParameters(family('actors')).map((p) => p.name ?? p.$ref);
 * // ['#/components/parameters/Page', '#/components/parameters/Size', 'sort', '#/components/parameters/Order', 'uuid',
 * // 'href', …]
 */
export function listParameters(family: Family): Json[] {
  const sortable = sortableFields(family);
  const example = sortable.find((f) => f !== 'uuid' && f !== 'href') ?? 'uuid';
  const sort: Json = {
    name: 'sort',
    in: 'query',
    required: false,
    description:
      `Field to sort by, optionally followed by \`,asc\` or \`,desc\` (any case). Ties break on \`uuid\`; ` +
      `records lacking the field come last. ` +
      `Without it the order is the data file's. Sortable: ${sortable.map((f) => `\`${f}\``).join(', ')}.`,
    schema: { type: 'string', examples: [`${example},desc`] },
  };
  const language = family.translation ? [parameter('Language'), parameter('AcceptLanguage')] : [];
  return [
    parameter('Page'),
    parameter('Size'),
    sort,
    parameter('Order'),
    parameter('Format'),
    ...language,
    searchParameter(family),
    ...shapeParameters(family),
    ...[...family.fields.values()].map(filterParameter),
  ];
}
