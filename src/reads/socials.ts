import { familyPath } from '../catalog/href.ts';
import { socialNamed, socialsOf, type Social } from '../catalog/socials.ts';
import { HttpError } from '../lib/http-error.ts';
import { positionOf, publicCache } from './locate.ts';
import type { ReadExchange, ReadRoute, ReadServed, ReadSettings } from './types.ts';

/** One social's answer, from the cache: what `GET …/socials/{social}` sends and a write answers. */
export function socialEntry<Entry>(served: ReadServed<Entry>, uuid: string, social: Social): Entry {
  return served.cache.get(`social ${uuid} ${social.social.toLowerCase()}`, () => ({
    json: JSON.stringify(social),
  }));
}

/** The answer a GET of actor `uuid`'s social `name` sends, or undefined when it has none of that name. */
export function namedSocialEntry<Entry>(served: ReadServed<Entry>, uuid: string, name: string): Entry | undefined {
  const store = served.catalog.store('actors');
  const at = store.position(uuid);
  const social = at === undefined ? undefined : socialNamed(store.records[at]!, name);
  return social && socialEntry(served, uuid, social);
}

/** The actor a socials route names, and its socials. */
function actorOf<Entry>(x: ReadExchange<Entry>) {
  const store = x.served.catalog.store('actors');
  const actor = store.records[positionOf(x, store)]!;
  return { actor, socials: socialsOf(actor) };
}

/** `/api/v1/actors/{uuid}/socials`, `/socials/random` and `/socials/{social}`: that actor's only. */
export function socialRoutes(settings: ReadSettings): ReadRoute[] {
  const base = `${familyPath('actors')}/:uuid/socials`;
  return [
    {
      path: base,
      handler: (x) => {
        const { actor, socials } = actorOf(x);
        const entry = x.served.cache.get(`socials ${actor.uuid}`, () => ({
          json: JSON.stringify(socials),
          cheap: socials.length === 0,
        }));
        x.send(entry, publicCache(settings));
      },
    },
    {
      path: `${base}/random`,
      handler: (x) => {
        const { actor, socials } = actorOf(x);
        if (socials.length === 0) throw new HttpError(404, `Actor '${actor.uuid}' has no socials`);
        const social = socials[Math.floor(Math.random() * socials.length)]!;
        x.send(socialEntry(x.served, actor.uuid, social), 'no-store');
      },
    },
    {
      path: `${base}/:social`,
      handler: (x) => {
        const { actor } = actorOf(x);
        const social = socialNamed(actor, String(x.params.social));
        if (!social) throw new HttpError(404, `Actor '${actor.uuid}' has no social '${x.params.social}'`);
        x.send(socialEntry(x.served, actor.uuid, social), publicCache(settings));
      },
    },
  ];
}
