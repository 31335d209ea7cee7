import type { Context } from 'koa';
import { familyPath } from '../../catalog/href.ts';
import { socialNamed, socialsOf, type Social } from '../../catalog/socials.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { CachedResponse } from '../../served/cached-response.ts';
import type { Served } from '../../served/served-catalog.ts';
import { send } from '../send.ts';
import { servedTo } from '../caller-view.ts';
import { positionOf, publicCache, type RouteDeps } from './context.ts';
import type { RouteTable } from '../routing.ts';

/** One social's answer, from the cache: what `GET …/socials/{social}` sends and a write answers. */
export function socialEntry(served: Served, uuid: string, social: Social): CachedResponse {
  return served.cache.get(`social ${uuid} ${social.social.toLowerCase()}`, () => ({
    json: JSON.stringify(social),
  }));
}

/** The answer a GET of actor `uuid`'s social `name` sends, or undefined when it has none of that name. */
export function namedSocialEntry(served: Served, uuid: string, name: string): CachedResponse | undefined {
  const store = served.catalog.store('actors');
  const at = store.position(uuid);
  const social = at === undefined ? undefined : socialNamed(store.records[at]!, name);
  return social && socialEntry(served, uuid, social);
}

/** `/api/v1/actors/{uuid}/socials`, `/socials/random` and `/socials/{social}`: that actor's only. */
export function socialRoutes(router: RouteTable, deps: RouteDeps): void {
  const base = `${familyPath('actors')}/:uuid/socials`;
  const actorOf = (ctx: Context) => {
    const served = servedTo(ctx, deps);
    const store = served.catalog.store('actors');
    const actor = store.records[positionOf(ctx, store)]!;
    return { served, actor, socials: socialsOf(actor) };
  };

  router.get(base, (ctx) => {
    const { served, actor, socials } = actorOf(ctx);
    send(
      ctx,
      served.cache.get(`socials ${actor.uuid}`, () => ({
        json: JSON.stringify(socials),
        cheap: socials.length === 0,
      })),
      publicCache(deps),
    );
  });

  router.get(`${base}/random`, (ctx) => {
    const { served, actor, socials } = actorOf(ctx);
    if (socials.length === 0) throw new HttpError(404, `Actor '${actor.uuid}' has no socials`);
    const social = socials[Math.floor(Math.random() * socials.length)]!;
    send(ctx, socialEntry(served, actor.uuid, social), 'no-store');
  });

  router.get(`${base}/:social`, (ctx) => {
    const { served, actor } = actorOf(ctx);
    const social = socialNamed(actor, String(ctx.params.social));
    if (!social) throw new HttpError(404, `Actor '${actor.uuid}' has no social '${ctx.params.social}'`);
    send(ctx, socialEntry(served, actor.uuid, social), publicCache(deps));
  });
}
