import { dataFile } from './http.ts';
import { operation, type Json } from './openapi.ts';

const FAMILIES = ['overview', 'actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'];

/**
 * A maker of real URLs for the document's path templates, from the embedded catalog: the
 * first record of the path's family, pt-BR, that record's first social, a real file of the
 * reference page and of GraphiQL, the first character's picture, and each required query parameter's example.
 *
 * @example
 * const fill = await exampleUrls(resolved);
 * fill('/api/v1/actors/{uuid}'); // '/api/v1/actors/4498b137-…'
 */
export async function exampleUrls(resolved: Json): Promise<(template: string) => string> {
  const firsts = new Map<string, Json>();
  for (const name of FAMILIES) firsts.set(name, (await dataFile(`${name}.json`))[0]!);
  return (template) => {
    const family = /^\/api\/v1\/(\w+)/.exec(template)?.[1] ?? '';
    const record = firsts.get(family);
    const social = (record?.socials as { social: string }[] | undefined)?.[0]?.social ?? '';
    const parameters = (operation(resolved, 'GET', template).parameters ?? []) as Json[];
    const path = template
      .replace('{uuid}', String(record?.uuid))
      .replace('{language}', 'pt-BR')
      .replace('{social}', social)
      .replace('{asset}', 'reference.css')
      .replace('{file}', 'graphiql.css')
      .replace('/images/{folder}/{picture}', String(firsts.get('characters')?.thumbnail))
      // Any other parameter: the first value its schema lists (a collection's name, say).
      .replace(/\{(\w+)\}/g, (_, name: string) => {
        const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
        return String(((parameter?.schema as Json | undefined)?.enum as unknown[] | undefined)?.[0] ?? `{${name}}`);
      });
    const required = parameters.filter((p) => p.in === 'query' && p.required);
    return required.length
      ? `${path}?${new URLSearchParams(required.map((p): [string, string] => [String(p.name), String(p.example)]))}`
      : path;
  };
}
