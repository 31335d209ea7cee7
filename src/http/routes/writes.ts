import type { Context, Middleware } from 'koa';
import type { Caller } from '../../accounts/account.ts';
import { createRecord, deleteRecord, patchRecord, type WriteOutcome } from '../../catalog/edit/operations.ts';
import {
  createSocial,
  createTranslation,
  deleteSocial,
  deleteTranslation,
  patchSocial,
  patchTranslation,
} from '../../catalog/edit/sub-resources.ts';
import { FAMILY_NAMES, family, type FamilyName } from '../../catalog/families.ts';
import { familyPath, hrefOf } from '../../catalog/href.ts';
import { socialNamed } from '../../catalog/socials.ts';
import type { Draft } from '../../catalog/edit/draft.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { AuthState } from '../bearer.ts';
import type { CachedResponse } from '../../served/cached-response.ts';
import type { CatalogWriter } from '../../served/catalog-writer.ts';
import { jsonBody } from '../json-body.ts';
import { pictureOrigin } from '../origin.ts';
import { positionOf, type RouteDeps } from './context.ts';
import { overviewEntry } from './meta.ts';
import { recordEntry } from './records.ts';
import { socialEntry } from './socials.ts';
import { translationEntry } from './translations.ts';
import type { RouteTable } from '../routing.ts';

/** What the write routes need besides the read routes' deps: the one place writes are taken. */
export interface WriteDeps extends RouteDeps {
  writer: CatalogWriter;
}

/** Largest write body: a record with long lists is a few KB; this leaves room without inviting abuse. */
const WRITE_BODY_BYTES = 64 * 1024;

/** Only callers the writer admits write: no token is a 401, a role that may not a 403 (see `CatalogWriter.admit`). */
const writersOnly =
  (writer: CatalogWriter): Middleware<AuthState> =>
  (ctx, next) => {
    writer.admit(ctx.state.account, `${ctx.method} ${ctx.path}`, `${ctx.protocol}://${ctx.host}`);
    return next();
  };

const body = (types: readonly string[]) => jsonBody({ maxBytes: WRITE_BODY_BYTES, types });
const created = body(['application/json']);
// JSON Merge Patch (RFC 7396); HawAPI's clients send it as plain JSON.
const merged = body(['application/json', 'application/merge-patch+json']);

/**
 * `If-Match`: the write goes ahead only if one of the tags is the current ETag of the target
 * as a GET answers it (in any language and encoding), or `*`. Without the header the last
 * write wins, as in HawAPI.
 */
function ifMatch(ctx: Context, current: () => CachedResponse[]): (() => void) | undefined {
  const header = ctx.get('If-Match').trim();
  if (!header || header === '*') return undefined;
  const sent = header.split(',').map((tag) => tag.trim());
  return () => {
    const tags = current().flatMap((entry) => ['identity', 'br', 'gzip'].map((encoding) => entry.etagFor(encoding)));
    if (!sent.some((tag) => tags.includes(tag))) {
      throw new HttpError(
        412,
        `If-Match ${header} is not the current ETag of ${ctx.path}: it changed since it was read (now ${tags[0]}); read it again and retry`,
      );
    }
  };
}

/** Writes a 201 or 200 with the answer a GET of the target would now send. */
function answer(ctx: Context, status: 200 | 201, entry: CachedResponse, location?: string): void {
  ctx.status = status;
  ctx.set({ ...entry.headers, ETag: entry.etagFor('identity'), 'Cache-Control': 'no-store' });
  if (location) ctx.set('Location', location);
  ctx.body = entry.body;
}

/**
 * The catalog write routes of HawAPI, for MAINTAINER and ADMIN accounts (and in classroom mode every account, in its sandbox): POST, PATCH and
 * DELETE of records, translations, socials and the overview. Each stages the write with the
 * catalog's own functions through `deps.writer` (the shared catalog, or the caller's sandbox) and answers what a GET would now answer.
 *
 * @example
 * writeRoutes(router, { ...routeDeps, writer: new CatalogWriter(curator) });
 */
export function writeRoutes(router: RouteTable, deps: WriteDeps): void {
  const admitted = writersOnly(deps.writer);
  const run = <T extends WriteOutcome>(ctx: Context, stage: (draft: Draft) => T, precondition?: () => void) =>
    deps.writer.write({
      caller: (ctx.state as AuthState).account as Caller,
      request: `${ctx.method} ${ctx.path}`,
      stage,
      ...(precondition ? { precondition } : {}),
    });
  const position = (ctx: Context, name: FamilyName) => positionOf(ctx, deps.served.current.catalog.store(name));
  const uuidOf = (ctx: Context, name: FamilyName) =>
    deps.served.current.catalog.store(name).records[position(ctx, name)]!.uuid;
  const languages = (name: FamilyName) =>
    family(name).translation ? deps.served.current.catalog.languages : [deps.served.current.catalog.defaultLanguage];
  const origin = (ctx: Context) => pictureOrigin(ctx, deps.publicUrl, deps.served.current.catalog);
  const recordTags = (ctx: Context, name: FamilyName, uuid: string) =>
    ifMatch(ctx, () => {
      const at = deps.served.current.catalog.store(name).position(uuid);
      const tagsOf = (language: string) =>
        name === 'overview'
          ? overviewEntry(deps, language, origin(ctx))
          : recordEntry(deps, name, at!, language, origin(ctx));
      return at === undefined ? [] : languages(name).map(tagsOf);
    });
  const recordAnswer = (ctx: Context, name: FamilyName, outcome: WriteOutcome) => {
    const language = outcome.language ?? deps.served.current.catalog.defaultLanguage;
    if (name === 'overview') return overviewEntry(deps, language, origin(ctx));
    return recordEntry(
      deps,
      name,
      deps.served.current.catalog.store(name).position(outcome.uuid)!,
      language,
      origin(ctx),
    );
  };

  for (const name of FAMILY_NAMES) {
    const base = familyPath(name);
    const item = name === 'overview' ? base : `${base}/:uuid`;
    const target = (ctx: Context) =>
      name === 'overview' ? deps.served.current.catalog.overview.uuid : uuidOf(ctx, name);

    router.post(base, admitted, created, async (ctx) => {
      const outcome = await run(ctx, (draft) => createRecord(draft, name, ctx.request.body));
      answer(ctx, 201, recordAnswer(ctx, name, outcome), hrefOf(name, outcome.uuid));
    });
    router.patch(item, admitted, merged, async (ctx) => {
      const uuid = target(ctx);
      const outcome = await run(
        ctx,
        (draft) => patchRecord(draft, name, uuid, ctx.request.body),
        recordTags(ctx, name, uuid),
      );
      answer(ctx, 200, recordAnswer(ctx, name, outcome));
    });
    router.delete(item, admitted, async (ctx) => {
      const uuid = target(ctx);
      await run(ctx, (draft) => deleteRecord(draft, name, uuid), recordTags(ctx, name, uuid));
      ctx.status = 204;
    });
    if (!family(name).translation) continue;

    const translationTags = (ctx: Context, uuid: string, language: string) =>
      ifMatch(ctx, () => {
        const store = deps.served.current.catalog.store(name);
        const at = store.position(uuid);
        const held =
          at === undefined ? undefined : store.languagesOf(at).find((l) => l.toLowerCase() === language.toLowerCase());
        return held ? [translationEntry(deps, name, at!, held)] : [];
      });
    const translationAnswer = (outcome: WriteOutcome) =>
      translationEntry(deps, name, deps.served.current.catalog.store(name).position(outcome.uuid)!, outcome.language!);
    router.post(`${item}/translations`, admitted, created, async (ctx) => {
      const uuid = target(ctx);
      const outcome = await run(ctx, (draft) => createTranslation(draft, name, uuid, ctx.request.body));
      answer(
        ctx,
        201,
        translationAnswer(outcome),
        `${name === 'overview' ? base : `${base}/${uuid}`}/translations/${outcome.language}`,
      );
    });
    router.patch(`${item}/translations/:language`, admitted, merged, async (ctx) => {
      const uuid = target(ctx);
      const language = String(ctx.params.language);
      const outcome = await run(
        ctx,
        (draft) => patchTranslation(draft, name, uuid, language, ctx.request.body),
        translationTags(ctx, uuid, language),
      );
      answer(ctx, 200, translationAnswer(outcome));
    });
    router.delete(`${item}/translations/:language`, admitted, async (ctx) => {
      const uuid = target(ctx);
      const language = String(ctx.params.language);
      await run(ctx, (draft) => deleteTranslation(draft, name, uuid, language), translationTags(ctx, uuid, language));
      ctx.status = 204;
    });
  }
  socialWrites(router, deps, admitted, run, uuidOf);
}

type Run = <T extends WriteOutcome>(ctx: Context, stage: (draft: Draft) => T, precondition?: () => void) => Promise<T>;

/** An actor's socials: POST a new one, PATCH or DELETE one by its network's name. */
function socialWrites(
  router: RouteTable,
  deps: WriteDeps,
  admitted: Middleware<AuthState>,
  run: Run,
  uuidOf: (ctx: Context, name: FamilyName) => string,
): void {
  const base = `${familyPath('actors')}/:uuid/socials`;
  const socialOf = (uuid: string, name: string) => {
    const store = deps.served.current.catalog.store('actors');
    return socialNamed(store.records[store.position(uuid)!]!, name);
  };
  const tags = (ctx: Context, uuid: string, name: string) =>
    ifMatch(ctx, () => {
      const social = socialOf(uuid, name);
      return social ? [socialEntry(deps, uuid, social)] : [];
    });
  router.post(base, admitted, created, async (ctx) => {
    const uuid = uuidOf(ctx, 'actors');
    const outcome = await run(ctx, (draft) => createSocial(draft, uuid, ctx.request.body));
    answer(
      ctx,
      201,
      socialEntry(deps, uuid, socialOf(uuid, outcome.social)!),
      `${hrefOf('actors', uuid)}/socials/${encodeURIComponent(outcome.social)}`,
    );
  });
  router.patch(`${base}/:social`, admitted, merged, async (ctx) => {
    const uuid = uuidOf(ctx, 'actors');
    const name = String(ctx.params.social);
    const outcome = await run(ctx, (draft) => patchSocial(draft, uuid, name, ctx.request.body), tags(ctx, uuid, name));
    answer(ctx, 200, socialEntry(deps, uuid, socialOf(uuid, outcome.social)!));
  });
  router.delete(`${base}/:social`, admitted, async (ctx) => {
    const uuid = uuidOf(ctx, 'actors');
    const name = String(ctx.params.social);
    await run(ctx, (draft) => deleteSocial(draft, uuid, name), tags(ctx, uuid, name));
    ctx.status = 204;
  });
}
