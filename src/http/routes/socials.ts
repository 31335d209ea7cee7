import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { HttpError } from '../../lib/http-error.ts';
import type { CachedResponse } from '../cached-response.ts';
import { send } from '../send.ts';
import { positionOf, publicCache, type RouteDeps } from './context.ts';

export type Social = { social: string; handle?: string; url: string };

/** One social's answer, from the cache: what `GET …/socials/{social}` sends and a write answers. */
export function socialEntry(deps: RouteDeps, uuid: string, social: Social): CachedResponse {
  return deps.served.current.cache.get(`social ${uuid} ${social.social.toLowerCase()}`, () => ({ json: JSON.stringify(social) }));
}

/** `/api/v1/actors/{uuid}/socials`, `/socials/random` and `/socials/{social}`: that actor's only. */
export function socialRoutes(router: Router, deps: RouteDeps): void {
  const base = '/api/v1/actors/:uuid/socials';
  const socialsOf = (ctx: Context) => {
    const store = deps.served.current.catalog.store('actors');
    const actor = store.records[positionOf(ctx, store)]!;
    return { actor, socials: (actor.socials as Social[] | undefined) ?? [] };
  };

  router.get(base, (ctx) => {
    const { actor, socials } = socialsOf(ctx);
    send(ctx, deps.served.current.cache.get(`socials ${actor.uuid}`, () => ({ json: JSON.stringify(socials), cheap: socials.length === 0 })), publicCache(deps));
  });

  router.get(`${base}/random`, (ctx) => {
    const { actor, socials } = socialsOf(ctx);
    if (socials.length === 0) throw new HttpError(404, `Actor '${actor.uuid}' has no socials`);
    const social = socials[Math.floor(Math.random() * socials.length)]!;
    send(ctx, deps.served.current.cache.get(`social ${actor.uuid} ${social.social.toLowerCase()}`, () => ({ json: JSON.stringify(social) })), 'no-store');
  });

  router.get(`${base}/:social`, (ctx) => {
    const { actor, socials } = socialsOf(ctx);
    const wanted = String(ctx.params.social).toLowerCase();
    const social = socials.find((s) => s.social.toLowerCase() === wanted);
    if (!social) throw new HttpError(404, `Actor '${actor.uuid}' has no social '${ctx.params.social}'`);
    send(ctx, socialEntry(deps, actor.uuid, social), publicCache(deps));
  });
}
