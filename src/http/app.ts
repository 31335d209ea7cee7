import Koa from 'koa';
import { Router } from '@koa/router';
import type { Catalog } from '../catalog/catalog.ts';

/** Builds the Koa application serving `catalog`. */
export function createApp(catalog: Catalog): Koa {
  const app = new Koa();
  const router = new Router();
  router.get('/api/ping', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'Pong';
  });
  router.get('/api/v1/overview', (ctx) => {
    ctx.body = { ...catalog.overview, data_count: catalog.counts() };
  });
  app.use(router.routes());
  return app;
}
