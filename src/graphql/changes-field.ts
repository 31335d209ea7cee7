import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
} from 'graphql';
import { readFeed } from '../changes/feed-answer.ts';
import { readFeedQuery } from '../changes/feed-query.ts';
import { HttpError } from '../lib/http-error.ts';
import { nonNull, type GraphQLContext } from './context.ts';

const ACTION = new GraphQLEnumType({
  name: 'ChangeAction',
  values: Object.fromEntries(['created', 'changed', 'deleted', 'reloaded', 'reset'].map((name) => [name, {}])),
});

const CHANGE = new GraphQLObjectType({
  name: 'Change',
  description: 'One change of the catalog, as `GET /api/v1/changes` lists it',
  fields: {
    cursor: { type: nonNull(GraphQLString), description: 'Opaque: the `since` that resumes after this change' },
    at: { type: nonNull(GraphQLString) },
    action: { type: nonNull(ACTION) },
    family: { type: GraphQLString },
    uuid: { type: GraphQLID },
    href: { type: GraphQLString },
    language: { type: GraphQLString },
    social: { type: GraphQLString },
    deleted: { type: GraphQLBoolean },
    data: { type: GraphQLString, description: '`reloaded`: the version of the data files now served' },
    sandbox: { type: GraphQLBoolean, description: 'A change of your own classroom sandbox' },
  },
});

const CHANGE_PAGE = new GraphQLObjectType({
  name: 'ChangePage',
  fields: {
    changes: { type: nonNull(new GraphQLList(nonNull(CHANGE))) },
    last: { type: nonNull(GraphQLString), description: 'The cursor after this page' },
    more: { type: nonNull(GraphQLBoolean) },
    version: { type: nonNull(GraphQLString), description: 'The data version now' },
  },
});

/**
 * `changes(since, limit, family)`: a page of the change feed, read and checked as
 * `GET /api/v1/changes` reads it (the same 400s, and 410 for a cursor that cannot be resumed).
 */
export const changesField: GraphQLFieldConfig<unknown, GraphQLContext, Record<string, unknown>> = {
  type: nonNull(CHANGE_PAGE),
  description: 'What changed after `since` (a cursor, or `now`; absent: from the first change kept), oldest first',
  args: {
    since: { type: GraphQLString },
    limit: { type: GraphQLInt, defaultValue: 100 },
    family: { type: new GraphQLList(nonNull(GraphQLString)), description: 'Only changes of these families' },
  },
  resolve: async (_, args, context) => {
    if (!context.changes)
      throw new HttpError(501, 'This catalog has no change feed: a static site is a copy frozen at its export');
    const limit = args.limit as number;
    const query = readFeedQuery(
      {
        ...(typeof args.since === 'string' ? { since: args.since } : {}),
        limit: Number.isSafeInteger(limit) && limit > 0 ? String(limit) : `${limit}`,
        ...(Array.isArray(args.family) ? { family: args.family.join(',') } : {}),
      },
      context.catalog,
      () => false,
    );
    const { feed, own, sync } = context.changes;
    if (sync && feed.isAhead(query.since)) await sync().catch(() => undefined);
    const { page, version } = readFeed(feed, own(), query, "Argument 'since'");
    return { ...page, version };
  },
};
