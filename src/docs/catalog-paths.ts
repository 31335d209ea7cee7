import { FAMILIES, type Family, type FamilyName } from '../catalog/families.ts';
import { familyPath } from '../catalog/href.ts';
import { listParameters, parameter, shapeParameters } from './parameters.ts';
import { uuidParameter } from './path-parameters.ts';
import { ALWAYS, CACHED, errorResponse, headerRefs, PAGE_HEADERS, response, success } from './responses.ts';
import { componentName, ref, type Json } from './schemas.ts';
import { capitalize, withArticle } from '../lib/text.ts';
import { socialPaths } from './social-paths.ts';

/** Examples from the loaded catalog: a uuid per family, and `social`, a social network of the actors' example. */
export type DocumentExamples = Partial<Record<FamilyName, string>> & { social?: string };

/** The tag grouping a family's operations. @example familyTag(family('actors')); // 'Actors' */
export function familyTag(family: Family): string {
  return capitalize(family.name);
}

/** Headers of a record answer: cache validators, and the language where there is one. */
function recordHeaders(family: Family, cacheHeaders: readonly string[]): string[] {
  return [...cacheHeaders, ...(family.translation ? ['Content-Language'] : [])];
}

/**
 * `…/translations`, `…/translations/random` and `…/translations/{language}` under `base`.
 * `located` are the parameters and answers of finding the record (its uuid, or none for the
 * single overview).
 */
function translationPaths(
  family: Family,
  base: string,
  located: { parameters: Json[]; responses: Json },
): Record<string, Json> {
  const name = componentName(family);
  const tags = [familyTag(family)];
  const one = ref(`${name}Translation`);
  const common = { tags, parameters: located.parameters };
  return {
    [`${base}/translations`]: {
      get: {
        ...common,
        operationId: `list${name}Translations`,
        summary: `Every translation of the ${family.singular}`,
        description:
          `Each translation holds its language and the translated fields, in the order the catalog lists its ` +
          `languages; \`Content-Language\` lists them all.`,
        responses: {
          200: success('The translations, one per language', { type: 'array', items: one }, [
            'Content-Language',
            ...CACHED,
          ]),
          304: response('NotModified'),
          ...located.responses,
          ...ALWAYS,
        },
      },
    },
    [`${base}/translations/random`]: {
      get: {
        ...common,
        operationId: `random${name}Translation`,
        summary: `A random translation of the ${family.singular}`,
        description:
          'One of the translations, picked anew on every request, so it is never cached (`Cache-Control: no-store`).',
        responses: {
          200: success('One of its translations', one, ['Content-Language', 'Cache-Control']),
          ...located.responses,
          ...ALWAYS,
        },
      },
    },
    [`${base}/translations/{language}`]: {
      get: {
        ...common,
        parameters: [...located.parameters, parameter('TranslationLanguage')],
        operationId: `get${name}Translation`,
        summary: `The ${family.singular}'s translation in one language`,
        description:
          'The language is matched in any case (`pt-br` finds `pt-BR`); a language the record has no translation ' +
          'in is a 404 listing those it has.',
        responses: {
          200: success('The translation', one, ['Content-Language', ...CACHED]),
          304: response('NotModified'),
          400: errorResponse('A malformed uuid, or a `language` parameter the catalog does not have'),
          404: errorResponse(
            `No such ${family.singular}, or it has no translation in that language (the message lists those it has)`,
          ),
          ...ALWAYS,
        },
      },
    },
  };
}

/** A record as a list, random or by-uuid read answers it: whole, or shaped by `expand` and `fields`. */
function served(name: string): Json {
  return {
    anyOf: [ref(name), ref(`Shaped${name}`)],
    description: `The whole ${name}; with \`expand\` or \`fields\`, a Shaped${name}`,
  };
}

/**
 * A list's 200 with its CSV form beside the JSON (`format=csv`, or `Accept: text/csv`): text,
 * with a `Content-Disposition` naming the file. A page above `MAX_PAGE_SIZE` is streamed, without an ETag.
 */
function withCsv(answer: Json): Json {
  const content = answer.content as Record<string, Json>;
  const headers = answer.headers as Record<string, Json>;
  return {
    ...answer,
    headers: { ...headers, ...headerRefs(['Content-Disposition']) },
    content: { ...content, 'text/csv': { schema: { type: 'string' } } },
  };
}

/** The list, random and by-uuid routes of a family (not the overview), and its translations. */
function familyPaths(family: Family, example: string | undefined): Record<string, Json> {
  const name = componentName(family);
  const base = familyPath(family.name);
  const tags = [familyTag(family)];
  const language = family.translation ? [parameter('Language'), parameter('AcceptLanguage')] : [];
  const badLanguage = family.translation ? errorResponse('A language the catalog does not have') : undefined;
  const uuid = uuidParameter(example);
  const byUuid = {
    parameters: [uuid],
    responses: {
      400: errorResponse(`A malformed uuid${badLanguage ? ', or a language the catalog does not have' : ''}`),
      404: errorResponse(`No such ${family.singular}`),
    },
  };
  return {
    [base]: {
      get: {
        tags,
        operationId: `list${familyTag(family)}`,
        summary: `A page of ${family.name}, filtered and sorted`,
        description:
          `Every query parameter but \`page\`, \`size\`, \`sort\`, \`order\`, \`format\`, \`q\`, \`expand\`, ` +
          `\`fields\`${family.translation ? ' and `language`' : ''} filters on the field it names; several ` +
          `combine with AND. An unknown one is a 400 listing the filterable fields. ` +
          'With `expand`, relation fields hold the related records instead of their hrefs; with `fields`, only ' +
          '`uuid`, `href` and the named fields are returned.',
        parameters: listParameters(family),
        responses: {
          200: withCsv(
            success(
              `A page of ${family.name} (a bare JSON array), or in CSV one row per record`,
              { type: 'array', items: served(name) },
              [...PAGE_HEADERS, ...recordHeaders(family, CACHED)],
            ),
          ),
          304: response('NotModified'),
          400: errorResponse('A malformed parameter, an unknown filter or sort field, or a value of the wrong type'),
          ...ALWAYS,
        },
      },
    },
    [`${base}/random`]: {
      get: {
        tags,
        operationId: `random${name}`,
        summary: `A random ${family.singular}`,
        description:
          `One ${family.singular} picked anew on every request (\`Cache-Control: no-store\`), shaped by \`expand\` ` +
          `and \`fields\` as the list is.`,
        parameters: [...language, ...shapeParameters(family)],
        responses: {
          200: success(
            `${capitalize(withArticle(family.singular))} picked at random (never cached)`,
            served(name),
            recordHeaders(family, ['Cache-Control']),
          ),
          ...(badLanguage ? { 400: badLanguage } : {}),
          404: errorResponse(`There are no ${family.name}`),
          ...ALWAYS,
        },
      },
    },
    [`${base}/{uuid}`]: {
      get: {
        tags,
        operationId: `get${name}`,
        summary: `One ${family.singular} by uuid`,
        description:
          `The uuid is matched in any case. With \`expand\`, relation fields hold the related records instead of ` +
          `their hrefs; with \`fields\`, only \`uuid\`, \`href\` and the named fields are returned.`,
        parameters: [uuid, ...language, ...shapeParameters(family)],
        responses: {
          200: success(`The ${family.singular}`, served(name), recordHeaders(family, CACHED)),
          304: response('NotModified'),
          ...byUuid.responses,
          ...ALWAYS,
        },
      },
    },
    ...(family.translation ? translationPaths(family, `${base}/{uuid}`, byUuid) : {}),
  };
}

/** `/api/v1/overview`, by its uuid, and its translations. */
function overviewPaths(overview: Family, example: string | undefined): Record<string, Json> {
  const uuid = uuidParameter(example);
  const tags = [familyTag(overview)];
  const answer = {
    200: success('The series overview, with `data_count`', ref('Overview'), recordHeaders(overview, CACHED)),
    304: response('NotModified'),
    400: errorResponse('A language the catalog does not have'),
  };
  const language = [parameter('Language'), parameter('AcceptLanguage')];
  return {
    [familyPath('overview')]: {
      get: {
        tags,
        operationId: 'getOverview',
        summary: 'The series overview',
        description: 'The one overview record, translated, with `data_count`: how many records each family has.',
        parameters: language,
        responses: { ...answer, ...ALWAYS },
      },
    },
    ...translationPaths(overview, familyPath('overview'), { parameters: [], responses: {} }),
    [`${familyPath('overview')}/{uuid}`]: {
      get: {
        tags,
        operationId: 'getOverviewByUuid',
        summary: 'The series overview, by its uuid',
        description:
          'The same as `/api/v1/overview`, for clients that read every record by uuid; any other uuid is a 404.',
        parameters: [uuid, ...language],
        responses: { ...answer, 404: errorResponse("Not the overview's uuid"), ...ALWAYS },
      },
    },
  };
}

/**
 * Every path of the read API, by family, in the order the router registers them.
 *
 * @example
 * Object.keys(catalogPaths()); // ['/api/v1/overview', …, '/api/v1/actors', '/api/v1/actors/random', …]
 */
export function catalogPaths(examples: DocumentExamples = {}): Record<string, Json> {
  const paths: Record<string, Json> = overviewPaths(FAMILIES.get('overview')!, examples.overview);
  for (const family of FAMILIES.values()) {
    if (family.name !== 'overview') Object.assign(paths, familyPaths(family, examples[family.name]));
    if (family.name === 'actors') Object.assign(paths, socialPaths(examples.actors, examples.social));
  }
  return paths;
}
