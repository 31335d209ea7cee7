import { family, FAMILY_NAMES } from '../catalog/families.ts';
import { familyPath } from '../catalog/href.ts';
import { positionOf } from './locate.ts';
import { apiInfo, overviewRoutes } from './overview.ts';
import { recordRoutes } from './records.ts';
import { socialRoutes } from './socials.ts';
import { translationRoutes } from './translations.ts';
import type { ReadRoute, ReadSettings } from './types.ts';

/**
 * The catalog's GET routes in matching order (fixed paths before `{uuid}`), for any face: the
 * server registers them with its router, a static site's worker matches them itself.
 *
 * @example
 * for (const { path, handler } of catalogReads(settings)) router.get(path, (ctx) => handler(koaExchange(ctx)));
 */
export function catalogReads(settings: ReadSettings): ReadRoute[] {
  const routes = [...overviewRoutes(settings), ...socialRoutes(settings)];
  for (const name of FAMILY_NAMES) {
    if (name === 'overview') continue;
    if (family(name).translation) {
      routes.push(...translationRoutes(settings, name, `${familyPath(name)}/:uuid`, positionOf));
    }
    routes.push(...recordRoutes(settings, name));
  }
  return routes;
}

/** Every GET route this module answers: `/api`, then the catalog's. */
export function readRoutes(settings: ReadSettings): ReadRoute[] {
  return [apiInfo(settings), ...catalogReads(settings)];
}
