import type { Context } from 'koa';
import { familyPath } from '../../catalog/href.ts';
import { socialNamed, socialsOf, type Social } from '../../catalog/socials.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { CachedResponse } from '../../served/cached-response.ts';
import { send } from '../send.ts';
import { positionOf, publicCache, type RouteDeps } from './context.ts';
import type { RouteTable } from '../routing.ts';

/** One social's answer, from the cache: what `GET …/socials/{social}` sends and a write answers. */
export function socialEntry(deps: RouteDeps, uuid: string, social: Social): CachedResponse {
  return deps.served.current.cache.get(`social ${uuid} ${social.social.toLowerCase()}`, () => ({
    json: JSON.stringify(social),
  }));
}

/** `/api/v1/actors/{uuid}/socials`, `/socials/random` and `/socials/{social}`: that actor's only. */
export function socialRoutes(router: RouteTable, deps: RouteDeps): void {
  const base = `${familyPath('actors')}/:uuid/socials`;
  const actorOf = (ctx: Context) => {
    const store = deps.served.current.catalog.store('actors');
    const actor = store.records[positionOf(ctx, store)]!;
    return { actor, socials: socialsOf(actor) };
  };

  router.get(base, (ctx) => {
    const { actor, socials } = actorOf(ctx);
    send(
      ctx,
      deps.served.current.cache.get(`socials ${actor.uuid}`, () => ({
        json: JSON.stringify(socials),
        cheap: socials.length === 0,
      })),
      publicCache(deps),
    );
  });

  router.get(`${base}/random`, (ctx) => {
    const { actor, socials } = actorOf(ctx);
    if (socials.length === 0) throw new HttpError(404, `Actor '${actor.uuid}' has no socials`);
    const social = socials[Math.floor(Math.random() * socials.length)]!;
    send(
      ctx,
      deps.served.current.cache.get(`social ${actor.uuid} ${social.social.toLowerCase()}`, () => ({
        json: JSON.stringify(social),
      })),
      'no-store',
    );
  });

  router.get(`${base}/:social`, (ctx) => {
    const { actor } = actorOf(ctx);
    const social = socialNamed(actor, String(ctx.params.social));
    if (!social) throw new HttpError(404, `Actor '${actor.uuid}' has no social '${ctx.params.social}'`);
    send(ctx, socialEntry(deps, actor.uuid, social), publicCache(deps));
  });
}
