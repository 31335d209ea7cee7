import type { Context } from 'koa';
import accepts from 'accepts';
import type { ChangeFeed } from '../../changes/feed.ts';
import { feedAnswer, type FeedReader } from '../../changes/feed-answer.ts';
import { readFeedQuery } from '../../changes/feed-query.ts';
import { picturePrefix } from '../../reads/locate.ts';
import { readerChanges, type SandboxViews } from '../../served/sandbox-views.ts';
import type { AuthState } from '../bearer.ts';
import { servedTo } from '../caller-view.ts';
import type { ChangeStreams } from '../change-streams.ts';
import { requestOrigin } from '../origin.ts';
import type { RouteTable } from '../routing.ts';
import { isSimulationParam } from '../simulation.ts';
import type { RouteDeps } from './context.ts';

/** What the feed's route needs: the feed, its streams, and in classroom mode the sandboxes (each reader's own changes). */
export interface ChangeRouteDeps extends RouteDeps {
  feed: ChangeFeed;
  streams: ChangeStreams;
  sandboxes?: SandboxViews;
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
  routes.get('/api/v1/changes', (ctx) => {
    const served = servedTo(ctx, deps);
    const query = readFeedQuery(ctx.query, served.catalog, (name) => isSimulationParam(ctx, name));
    const own = readerChanges(deps.sandboxes, (ctx.state as AuthState).account);
    const origin = picturePrefix(served.catalog, () => requestOrigin(ctx, deps.publicUrl));
    const reader = (): FeedReader => ({ catalog: servedTo(ctx, deps).catalog, own: own(), origin });
    ctx.set('Cache-Control', 'no-store');
    ctx.vary('Accept');
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
    const who = { address: ctx.ip, ...(caller ? { account: caller.uuid } : {}), reader };
    const cursor = deps.feed.cursorOf(asked.since, own(), resume === undefined ? `Parameter 'since'` : 'Last-Event-ID');
    deps.streams.admit(who);
    deps.streams.start(ctx, cursor, asked, who);
  });
}

/** The `Last-Event-ID` a reconnecting client sends (it wins over `since`), or undefined. */
function lastEventId(ctx: Context): string | undefined {
  const value = ctx.get('Last-Event-ID');
  return value === '' ? undefined : value;
}
