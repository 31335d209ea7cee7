import { HttpError } from '../../lib/http-error.ts';
import { PICTURE_CACHE_CONTROL } from '../../reads/pictures.ts';
import { countsIn, type RouteTable } from '../routing.ts';
import { send } from '../send.ts';
import type { ServedCatalog } from '../../served/served-catalog.ts';
import { servedTo } from '../caller-view.ts';

/**
 * `GET /images/{folder}/{picture}`: a picture the catalog names, drawn or contributed, from
 * memory. Counted in the pictures' own budget, never in a reader's.
 */
export function pictureRoutes(router: RouteTable, served: ServedCatalog): void {
  router.get('/images/:folder/:picture', countsIn('pictures'), (ctx) => {
    const entry = servedTo(ctx, { served }).pictures.get(ctx.path);
    if (!entry) throw new HttpError(404, `No picture at ${ctx.path}: the catalog names none there`);
    send(ctx, entry, PICTURE_CACHE_CONTROL);
  });
}
