import type { Context, Middleware } from 'koa';
import type { WriteOutcome } from '../../catalog/edit/operations.ts';
import { FAMILY_NAMES, family, type FamilyName } from '../../catalog/families.ts';
import { familyPath, hrefOf, socialHref, translationHref } from '../../catalog/href.ts';
import type { CachedResponse } from '../../served/cached-response.ts';
import type { AuthState } from '../bearer.ts';
import type { CatalogWriter, WriteCall } from '../catalog-writer.ts';
import { jsonBody } from '../json-body.ts';
import { pictureOrigin } from '../origin.ts';
import { servedTo } from '../caller-view.ts';
import { positionOf } from '../../reads/locate.ts';
import type { RouteDeps } from './context.ts';
import { overviewEntry } from '../../reads/overview.ts';
import { recordEntry } from '../../reads/records.ts';
import { namedSocialEntry } from '../../reads/socials.ts';
import { translationEntry } from '../../reads/translations.ts';
import type { RouteTable } from '../routing.ts';

/** Largest write body: a record with long lists is a few KB; this leaves room without inviting abuse. */
const WRITE_BODY_BYTES = 64 * 1024;

const body = (types: readonly string[]) => jsonBody({ maxBytes: WRITE_BODY_BYTES, types });
const created = body(['application/json']);
// JSON Merge Patch (RFC 7396); HawAPI's clients send it as plain JSON.
const merged = body(['application/json', 'application/merge-patch+json']);

/** Writes a 201 or 200 with the answer a GET of the target would now send. */
function answer(ctx: Context, status: 200 | 201, entry: CachedResponse, location?: string): void {
  ctx.status = status;
  ctx.set({ ...entry.headers, ETag: entry.etagFor('identity'), 'Cache-Control': 'no-store' });
  if (location) ctx.set('Location', location);
  ctx.body = entry.body;
}

/**
 * The catalog write routes of HawAPI, for MAINTAINER and ADMIN accounts (in classroom mode
 * every account, each in its own sandbox): POST, PATCH and
 * DELETE of records, translations, socials and the overview. Each writes through `writer`
 * (the writes GraphQL's mutations make too) and answers what a GET would now answer.
 *
 * @example
 * writeRoutes(router, routeDeps, new CatalogWriter({ ...routeDeps, curator }));
 */
export function writeRoutes(router: RouteTable, deps: RouteDeps, writer: CatalogWriter): void {
  const call = (ctx: Context): WriteCall => ({
    caller: (ctx.state as AuthState).account,
    request: `${ctx.method} ${ctx.path}`,
    ifMatch: ctx.get('If-Match'),
    origin: pictureOrigin(ctx, deps.publicUrl, servedTo(ctx, deps).catalog),
  });
  // Refused before the body is read (the writer asks again for every write).
  const writersOnly: Middleware<AuthState> = async (ctx, next) => {
    writer.admit(ctx.state.account, `${ctx.method} ${ctx.path}`, call(ctx).origin);
    await next();
    // The answer names the version the write made (a 204 reads nothing after it).
    servedTo(ctx, deps);
  };
  const uuidOf = (ctx: Context, name: FamilyName) => {
    const store = servedTo(ctx, deps).catalog.store(name);
    return store.records[positionOf({ params: ctx.params as Record<string, string> }, store)]!.uuid;
  };
  const recordAnswer = (ctx: Context, name: FamilyName, outcome: WriteOutcome) => {
    const served = servedTo(ctx, deps);
    const language = outcome.language ?? served.catalog.defaultLanguage;
    const origin = pictureOrigin(ctx, deps.publicUrl, served.catalog);
    if (name === 'overview') return overviewEntry(served, language, origin);
    return recordEntry(served, name, served.catalog.store(name).position(outcome.uuid)!, language, origin);
  };

  for (const name of FAMILY_NAMES) {
    const base = familyPath(name);
    const item = name === 'overview' ? base : `${base}/:uuid`;
    const target = (ctx: Context) =>
      name === 'overview' ? servedTo(ctx, deps).catalog.overview.uuid : uuidOf(ctx, name);

    router.post(base, writersOnly, created, async (ctx) => {
      const outcome = await writer.createRecord(call(ctx), name, ctx.request.body);
      answer(ctx, 201, recordAnswer(ctx, name, outcome), hrefOf(name, outcome.uuid));
    });
    router.patch(item, writersOnly, merged, async (ctx) => {
      const outcome = await writer.patchRecord(call(ctx), name, target(ctx), ctx.request.body);
      answer(ctx, 200, recordAnswer(ctx, name, outcome));
    });
    router.delete(item, writersOnly, async (ctx) => {
      await writer.deleteRecord(call(ctx), name, target(ctx));
      ctx.status = 204;
    });
    if (!family(name).translation) continue;

    const translationAnswer = (ctx: Context, outcome: WriteOutcome) => {
      const served = servedTo(ctx, deps);
      return translationEntry(served, name, served.catalog.store(name).position(outcome.uuid)!, outcome.language!);
    };
    router.post(`${item}/translations`, writersOnly, created, async (ctx) => {
      const uuid = target(ctx);
      const outcome = await writer.createTranslation(call(ctx), name, uuid, ctx.request.body);
      answer(ctx, 201, translationAnswer(ctx, outcome), translationHref(name, uuid, outcome.language!));
    });
    router.patch(`${item}/translations/:language`, writersOnly, merged, async (ctx) => {
      const language = String(ctx.params.language);
      const outcome = await writer.patchTranslation(call(ctx), name, target(ctx), language, ctx.request.body);
      answer(ctx, 200, translationAnswer(ctx, outcome));
    });
    router.delete(`${item}/translations/:language`, writersOnly, async (ctx) => {
      await writer.deleteTranslation(call(ctx), name, target(ctx), String(ctx.params.language));
      ctx.status = 204;
    });
  }

  // An actor's socials: POST a new one, PATCH or DELETE one by its network's name.
  const socials = `${familyPath('actors')}/:uuid/socials`;
  router.post(socials, writersOnly, created, async (ctx) => {
    const uuid = uuidOf(ctx, 'actors');
    const outcome = await writer.createSocial(call(ctx), uuid, ctx.request.body);
    answer(ctx, 201, namedSocialEntry(servedTo(ctx, deps), uuid, outcome.social)!, socialHref(uuid, outcome.social));
  });
  router.patch(`${socials}/:social`, writersOnly, merged, async (ctx) => {
    const uuid = uuidOf(ctx, 'actors');
    const outcome = await writer.patchSocial(call(ctx), uuid, String(ctx.params.social), ctx.request.body);
    answer(ctx, 200, namedSocialEntry(servedTo(ctx, deps), uuid, outcome.social)!);
  });
  router.delete(`${socials}/:social`, writersOnly, async (ctx) => {
    await writer.deleteSocial(call(ctx), uuidOf(ctx, 'actors'), String(ctx.params.social));
    ctx.status = 204;
  });
}
