import { publicCache } from '../../reads/locate.ts';
import { countsIn, type RouteTable } from '../routing.ts';
import { send } from '../send.ts';
import { servedTo } from '../caller-view.ts';
import type { RouteDeps } from './context.ts';

/** `/api/ping` and `/api/v1/endpoints` (every GET route the server has). */
export function metaRoutes(router: RouteTable, deps: RouteDeps): void {
  router.get('/api/ping', countsIn('free'), (ctx) => {
    ctx.body = 'Pong';
    ctx.type = 'text/plain';
  });

  router.get('/api/v1/endpoints', (ctx) => {
    const entry = servedTo(ctx, deps).cache.get('endpoints', () => {
      const routes = router.listed
        .filter((route) => route.method === 'GET')
        .map((route) => ({ method: 'GET', path: route.path.replace(/:(\w+)/g, '{$1}') }));
      return { json: JSON.stringify(routes) };
    });
    send(ctx, entry, publicCache(deps));
  });
}
