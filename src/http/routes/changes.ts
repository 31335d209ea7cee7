import type { Context } from 'koa';
import accepts from 'accepts';
import type { ChangeFeed } from '../../changes/feed.ts';
import { feedAnswer, type FeedReader } from '../../changes/feed-answer.ts';
import { readFeedQuery } from '../../changes/feed-query.ts';
import { picturePrefix } from '../../reads/locate.ts';
import { readerChanges, type SandboxViews } from '../../served/sandbox-views.ts';
import type { AuthState } from '../bearer.ts';
import { servedTo, type ViewState } from '../caller-view.ts';
import type { ChangeStreams, StreamReader } from '../change-streams.ts';
import type { FeedQuery } from '../../changes/feed-query.ts';
import { HttpError } from '../../lib/http-error.ts';
import { adminOf } from './sandbox.ts';
import { requestOrigin } from '../origin.ts';
import type { RouteTable } from '../routing.ts';
import { isSimulationParam } from '../simulation.ts';
import type { RouteDeps } from './context.ts';

/**
 * What the feed's route needs: the feed, its streams, and in classroom mode the sandboxes (each reader's own changes).
 */
export interface ChangeRouteDeps extends RouteDeps {
  feed: ChangeFeed;
  streams: ChangeStreams;
  sandboxes?: SandboxViews;
  /** Applies what other instances appended (a shared Redis): done before a cursor ahead of this instance is judged. */
  sync?: () => Promise<void>;
}

/** Whether the request asks for a stream: `Accept: text/event-stream` preferred to JSON. */
const wantsStream = (ctx: Context) =>
  accepts(ctx.req).type(['application/json', 'text/event-stream']) === 'text/event-stream' &&
  ctx.get('Accept').includes('text/event-stream');

/**
 * `GET /api/v1/changes`: a page of what changed after `since` (JSON), or with
 * `Accept: text/event-stream` the same changes, then every later one, as server-sent events
 * (`Last-Event-ID` resumes, as `since` does). See docs/changes.md.
 */
export function changeRoutes(routes: RouteTable, deps: ChangeRouteDeps): void {
  routes.get('/api/v1/changes', async (ctx) => {
    const since = lastEventId(ctx) ?? (typeof ctx.query.since === 'string' ? ctx.query.since : undefined);
    if (deps.sync && deps.feed.isAhead(since)) await deps.sync().catch(() => undefined);
    const served = servedTo(ctx, deps);
    const query = readFeedQuery(ctx.query, served.catalog, (name) => isSimulationParam(ctx, name));
    const own = readerChanges(deps.sandboxes, (ctx.state as AuthState).account);
    const origin = picturePrefix(served.catalog, () => requestOrigin(ctx, deps.publicUrl));
    // A stream reads the catalog as it is at each change, not as it was when it opened.
    const view = (ctx.state as ViewState).view;
    const reader = (): FeedReader => ({ catalog: deps.served.seenBy(view).catalog, own: own(), origin });
    ctx.set('Cache-Control', 'no-store');
    // The fast path replays a remembered 400 only to requests alike in these.
    ctx.vary('Accept');
    ctx.vary('Last-Event-ID');
    const student = boardOf(ctx, deps, query);
    if (!wantsStream(ctx)) {
      const { json, link } = feedAnswer(deps.feed, reader(), query, ctx.path);
      if (link) ctx.set('Link', link);
      ctx.type = 'application/json';
      ctx.body = json;
      return;
    }
    const resume = lastEventId(ctx);
    const asked = resume === undefined ? query : { ...query, since: resume };
    const caller = (ctx.state as AuthState).account;
    const who = {
      address: ctx.ip,
      ...(caller ? { account: caller.uuid } : {}),
      reader,
      ...(student ? { student } : {}),
    };
    const cursor = deps.feed.cursorOf(asked.since, own(), resume === undefined ? `Parameter 'since'` : 'Last-Event-ID');
    deps.streams.admit(who);
    deps.streams.start(ctx, cursor, asked, who);
  });
}

/**
 * What an ADMIN's stream with `include=sandboxes` (the teacher's board) is told of a student
 * whose sandbox changed; undefined without it. Refused outside classroom mode (400), to anyone
 * but an ADMIN (401, 403), and on a page (400: the class is `GET /api/v1/sandboxes`).
 */
function boardOf(ctx: Context, deps: ChangeRouteDeps, query: FeedQuery): StreamReader['student'] {
  if (!query.sandboxes) return undefined;
  const { sandboxes } = deps;
  if (!sandboxes) throw new HttpError(400, `Parameter 'include=sandboxes' needs classroom mode (CLASSROOM=on)`);
  if (!wantsStream(ctx))
    throw new HttpError(
      400,
      `Parameter 'include=sandboxes' is for a stream (Accept: text/event-stream); the class now is GET ` +
        `/api/v1/sandboxes`,
    );
  adminOf(ctx, "follows the class's sandboxes");
  return (account) => sandboxes.studentOf(account);
}

/** The `Last-Event-ID` a reconnecting client sends (it wins over `since`), or undefined. */
function lastEventId(ctx: Context): string | undefined {
  const value = ctx.get('Last-Event-ID');
  return value === '' ? undefined : value;
}
