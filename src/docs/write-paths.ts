import { FAMILIES } from '../catalog/families.ts';
import { familyPath } from '../catalog/href.ts';
import { familyTag } from './catalog-paths.ts';
import { parameter } from './parameters.ts';
import { uuidParameter } from './path-parameters.ts';
import { ALWAYS, errorResponse, headerRefs, COMMON_HEADERS, success } from './responses.ts';
import { componentName, ref, type Json } from './schemas.ts';
import { withArticle } from '../lib/text.ts';

const CURATOR = [{ bearerAuth: [] }];

/** What creating an episode does besides adding it. */
const NEW_EPISODE =
  ' (a new episode joins its season: numbered after the last, chained after it, counted in the total)';
/** What patching a translated family's record does with its translated fields. */
const TRANSLATED_PATCH =
  '; translated fields change the translation in `language` (the default when absent), created when missing';

/** What a write may answer besides its success. */
function refusals(what: string): Json {
  return {
    400: errorResponse(
      `The body is not ${withArticle(what)}: every problem is named at once (a wrong type, an unknown field, a ` +
        `server field such as \`uuid\`, a missing required field)`,
    ),
    403: errorResponse("The token is not a MAINTAINER or ADMIN account's"),
    409: errorResponse(
      'The write would break a link: a relation to a record that does not exist, a record others still link to ' +
        '(each named), a translation or social that exists already',
    ),
    412: errorResponse('`If-Match` names an ETag that is no longer current: the target changed since it was read'),
    ...ALWAYS,
    401: errorResponse('No bearer token, or a refused one', ['WWW-Authenticate']),
  };
}

const noContent = (description: string): Json => ({ description, headers: headerRefs(COMMON_HEADERS) });

const body = (schema: Json, patch = false): Json => ({
  required: true,
  content: patch
    ? { 'application/merge-patch+json': { schema }, 'application/json': { schema } }
    : { 'application/json': { schema } },
});

/** Adds `operations` to the path item at `path`. */
function add(paths: Record<string, Json>, path: string, operations: Json): void {
  paths[path] = { ...(paths[path] ?? {}), ...operations };
}

/**
 * The write operations (POST, PATCH, DELETE) of every family, translation, social and the
 * overview, added to the read API's paths, each with the bearer security.
 */
export function addWritePaths(
  paths: Record<string, Json>,
  examples: Partial<Record<string, string>> = {},
): Record<string, Json> {
  for (const family of FAMILIES.values()) {
    const name = componentName(family);
    const tags = [familyTag(family)];
    const overview = family.name === 'overview';
    const base = familyPath(family.name);
    const item = overview ? base : `${base}/{uuid}`;
    const uuid = overview ? [] : [uuidParameter(examples[family.name])];
    const headers = ['ETag', 'Cache-Control', ...(family.translation ? ['Content-Language'] : [])];
    const common = { tags, security: CURATOR };
    add(paths, base, {
      post: {
        ...common,
        operationId: `create${name}`,
        summary: overview
          ? 'Refused: the catalog has its one overview'
          : `Create ${withArticle(family.singular)} (MAINTAINER, ADMIN)`,
        description: overview
          ? 'HawAPI has this route; here it is always a 409, as the catalog holds exactly one overview.'
          : `A new ${family.singular}: two-sided links get their other side` +
            `${family.name === 'episodes' ? NEW_EPISODE : ''}.`,
        requestBody: body(ref(overview ? 'OverviewPatch' : `${name}Create`)),
        responses: {
          201: success(`The ${family.singular}, as a GET now answers it`, ref(name), [...headers, 'Location']),
          ...refusals(`${family.singular}`),
        },
      },
    });
    add(paths, item, {
      patch: {
        ...common,
        operationId: `patch${name}`,
        summary: `Change the ${family.singular} (MAINTAINER, ADMIN)`,
        description:
          `A JSON Merge Patch of the ${family.singular}${family.translation ? TRANSLATED_PATCH : ''}. ` +
          `Honours \`If-Match\` (412 when the ${family.singular} changed since); without it the last write wins.`,
        parameters: uuid,
        requestBody: body(ref(`${name}Patch`), true),
        responses: {
          200: success(`The ${family.singular}, as a GET now answers it`, ref(name), headers),
          404: errorResponse(`No such ${family.singular}`),
          ...refusals('merge patch'),
        },
      },
      delete: {
        ...common,
        operationId: `delete${name}`,
        summary: overview
          ? 'Refused: the catalog needs its overview'
          : `Delete the ${family.singular} (MAINTAINER, ADMIN)`,
        description: overview
          ? 'Always a 409: the catalog must keep its overview.'
          : 'With its translations; lists holding it drop it and chains close over it. Any other record still ' +
            'linking to it refuses the delete (409, each named). Honours `If-Match`.',
        parameters: uuid,
        responses: {
          204: noContent('Deleted'),
          404: errorResponse(`No such ${family.singular}`),
          ...refusals('request'),
        },
      },
    });
    if (!family.translation) continue;
    const translation = ref(`${name}Translation`);
    add(paths, `${item}/translations`, {
      post: {
        ...common,
        operationId: `create${name}Translation`,
        summary: `Add a translation (MAINTAINER, ADMIN)`,
        description: 'A translation in a language the record has none in (409 if it has).',
        parameters: uuid,
        requestBody: body(translation),
        responses: {
          201: success('The translation', translation, ['ETag', 'Cache-Control', 'Content-Language', 'Location']),
          404: errorResponse(`No such ${family.singular}`),
          ...refusals('translation'),
        },
      },
    });
    add(paths, `${item}/translations/{language}`, {
      patch: {
        ...common,
        operationId: `patch${name}Translation`,
        summary: 'Change a translation (MAINTAINER, ADMIN)',
        description: 'A JSON Merge Patch of one translation. Honours `If-Match`.',
        parameters: [...uuid, parameter('TranslationLanguage')],
        requestBody: body({ ...translation }, true),
        responses: {
          200: success('The translation', translation, ['ETag', 'Cache-Control', 'Content-Language']),
          404: errorResponse('No such record or translation'),
          ...refusals('merge patch'),
        },
      },
      delete: {
        ...common,
        operationId: `delete${name}Translation`,
        summary: 'Delete a translation (MAINTAINER, ADMIN)',
        description: "Any translation but the default language's (409). Honours `If-Match`.",
        parameters: [...uuid, parameter('TranslationLanguage')],
        responses: {
          204: noContent('Deleted'),
          404: errorResponse('No such record or translation'),
          ...refusals('request'),
        },
      },
    });
  }
  const tags = ['Actors'];
  const uuid = [uuidParameter(examples.actors)];
  const social = ref('Social');
  add(paths, `${familyPath('actors')}/{uuid}/socials`, {
    post: {
      tags,
      security: CURATOR,
      operationId: 'createActorSocial',
      summary: 'Add a social account (MAINTAINER, ADMIN)',
      description: 'An account on a network the actor has none on (409 if it has).',
      parameters: uuid,
      requestBody: body(social),
      responses: {
        201: success('The social account', social, ['ETag', 'Cache-Control', 'Location']),
        404: errorResponse('No such actor'),
        ...refusals('social'),
      },
    },
  });
  add(paths, `${familyPath('actors')}/{uuid}/socials/{social}`, {
    patch: {
      tags,
      security: CURATOR,
      operationId: 'patchActorSocial',
      summary: 'Change a social account (MAINTAINER, ADMIN)',
      description: 'A JSON Merge Patch of the account. Honours `If-Match`.',
      parameters: [...uuid, parameter('Social')],
      requestBody: body(ref('SocialPatch'), true),
      responses: {
        200: success('The social account', social, ['ETag', 'Cache-Control']),
        404: errorResponse('No such actor or social'),
        ...refusals('merge patch'),
      },
    },
    delete: {
      tags,
      security: CURATOR,
      operationId: 'deleteActorSocial',
      summary: 'Delete a social account (MAINTAINER, ADMIN)',
      description: 'Honours `If-Match`.',
      parameters: [...uuid, parameter('Social')],
      responses: { 204: noContent('Deleted'), 404: errorResponse('No such actor or social'), ...refusals('request') },
    },
  });
  return paths;
}
