import type { Json } from './schemas.ts';

// The path parameters that carry an example of the loaded catalog, so that "Try it out" and a
// collection's first request answer 200 without typing one.

/**
 * The `{uuid}` path parameter, with `example` (a record of the loaded catalog) so that "Try it
 * out" on the reference page works without typing one.
 *
 * @example
 * uuidParameter('4498b137-a2dc-4b70-9dcb-a4d84d57c5e0'); // { name: 'uuid', in: 'path', …, example: '4498b137-…' }
 */
export function uuidParameter(example: string | undefined): Json {
  return example ? { ...UUID, example } : UUID;
}

const UUID: Json = {
  name: 'uuid',
  in: 'path',
  required: true,
  description: "The record's uuid (any case). A malformed uuid is a 400, an unknown one a 404.",
  schema: { type: 'string', format: 'uuid' },
};

/** The `{social}` path parameter, with `example` (a network of the actors' example) when given. */
export function socialParameter(example?: string): Json {
  const social: Json = {
    name: 'social',
    in: 'path',
    required: true,
    description: "The network's name, e.g. `Instagram` (any case).",
    schema: { type: 'string' },
  };
  return example ? { ...social, example } : social;
}
