import { familyPath } from '../catalog/href.ts';
import { parameter } from './parameters.ts';
import { socialParameter, uuidParameter } from './path-parameters.ts';
import { ALWAYS, CACHED, errorResponse, response, success } from './responses.ts';
import { ref, type Json } from './schemas.ts';

/** An actor's social accounts. */
export function socialPaths(example: string | undefined, social?: string): Record<string, Json> {
  const tags = ['Actors'];
  const uuid = uuidParameter(example);
  const actor = { 400: errorResponse('A malformed uuid'), 404: errorResponse('No such actor') };
  const list = { type: 'array', items: ref('Social') };
  const base = `${familyPath('actors')}/{uuid}/socials`;
  return {
    [base]: {
      get: {
        tags,
        operationId: 'listActorSocials',
        summary: "The actor's social accounts",
        description: 'Every social network account of the actor, as its `socials` field lists them.',
        parameters: [uuid],
        responses: {
          200: success('Every social account', list, CACHED),
          304: response('NotModified'),
          ...actor,
          ...ALWAYS,
        },
      },
    },
    [`${base}/random`]: {
      get: {
        tags,
        operationId: 'randomActorSocial',
        summary: 'A random social account of the actor',
        description: 'One of the accounts, picked anew on every request (`Cache-Control: no-store`).',
        parameters: [uuid],
        responses: {
          200: success('One of them', ref('Social'), ['Cache-Control']),
          ...actor,
          404: errorResponse('No such actor, or it has no socials'),
          ...ALWAYS,
        },
      },
    },
    [`${base}/{social}`]: {
      get: {
        tags,
        operationId: 'getActorSocial',
        summary: "The actor's account on one network",
        description: 'The network is matched by name in any case (`instagram` finds `Instagram`).',
        parameters: [uuid, social ? socialParameter(social) : parameter('Social')],
        responses: {
          200: success('The account', ref('Social'), CACHED),
          304: response('NotModified'),
          ...actor,
          404: errorResponse('No such actor, or no account on that network'),
          ...ALWAYS,
        },
      },
    },
  };
}
