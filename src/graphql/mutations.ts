import { GraphQLID, GraphQLString, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap } from 'graphql';
import type { Catalog } from '../catalog/catalog.ts';
import type { WriteOutcome } from '../catalog/edit/operations.ts';
import { FAMILIES, FAMILY_NAMES, type Family } from '../catalog/families.ts';
import { checkedUuid } from '../catalog/href.ts';
import type { CatalogWriter, WriteCall } from '../http/catalog-writer.ts';
import { HttpError } from '../lib/http-error.ts';
import { capitalize, withArticle } from '../lib/text.ts';
import { InputTypes } from './input-types.ts';
import type { RecordTypes } from './record-types.ts';
import { nonNull, type GraphQLContext } from './context.ts';
import { ServedRecord } from './served.ts';

type Args = Record<string, unknown>;
type MutationField = GraphQLFieldConfig<unknown, GraphQLContext, Args>;

const IF_MATCH = {
  if_match: {
    type: GraphQLString,
    description:
      'The ETag the REST read answered (If-Match): the write goes ahead only if it is still current, else 412',
  },
};

interface Writing {
  writer: CatalogWriter;
  call: WriteCall;
  /** The catalog the caller reads now (its sandbox's in classroom mode), with every write it sees taken. */
  seen: () => Catalog;
}

/**
 * The writer and this request's side of a write, once the caller is admitted; else the REST
 * routes' refusal: 405 when the server takes no writes, 401 or 403 for the caller.
 */
function writing(context: GraphQLContext, field: string, args: Args): Writing {
  const { writer, caller, noWrites } = context.mutations;
  if (!writer)
    throw new HttpError(405, `${field}: ${noWrites ?? 'this server takes no catalog writes (CATALOG_WRITES=off)'}`);
  const request = `mutation ${field}`;
  // Admitted first, as the REST routes admit before reading a path or a body: no one without
  // the right to write learns whether a record exists.
  writer.admit(caller, request, context.origin);
  const ifMatch = typeof args.if_match === 'string' ? args.if_match : undefined;
  const seen = () => writer.catalogOf(caller);
  return { writer, seen, call: { caller, request, ifMatch, origin: context.origin } };
}

/** The record a write left, served as the queries serve it, from the catalog as it is after the write. */
function served(context: GraphQLContext, seen: () => Catalog, outcome: WriteOutcome): ServedRecord {
  const catalog = seen();
  const store = catalog.store(outcome.family);
  const language = outcome.language ?? catalog.defaultLanguage;
  return new ServedRecord(catalog, store, store.position(outcome.uuid)!, language, context.origin, new Map());
}

/**
 * The uuid a mutation names, checked as a REST path's is: 400 when malformed, 404 when the
 * family has no such record (now: an earlier mutation of the request may have made it).
 */
function existing(catalog: Catalog, family: Family, raw: unknown): string {
  const uuid = checkedUuid(String(raw));
  if (catalog.store(family.name).position(uuid) === undefined)
    throw new HttpError(404, `${capitalize(family.singular)} '${uuid}' not found`);
  return uuid;
}

/** `create_`, `update_` and `delete_` of one family's records (the overview: its update only, as REST). */
function recordMutations(family: Family, types: RecordTypes, inputs: InputTypes): Record<string, MutationField> {
  const type = nonNull(types.get(family.name));
  const { name, singular } = family;
  const overview = name === 'overview';
  const target = (catalog: Catalog, args: Args) =>
    overview ? catalog.overview.uuid : existing(catalog, family, args.uuid);
  const uuid: GraphQLFieldConfigArgumentMap = overview ? {} : { uuid: { type: nonNull(GraphQLID) } };
  const update: Record<string, MutationField> = {
    [`update_${singular}`]: {
      type,
      description:
        `Changes the ${singular} with a JSON Merge Patch, as PATCH ` +
        `${overview ? '/api/v1/overview' : `/api/v1/${name}/{uuid}`} does; answers it as served, in the patch's ` +
        `language`,
      args: { ...uuid, patch: { type: nonNull(inputs.record(family, 'Patch')) }, ...IF_MATCH },
      resolve: async (_, args, context) => {
        const { writer, call, seen } = writing(context, `update_${singular}`, args);
        return served(context, seen, await writer.patchRecord(call, name, target(seen(), args), args.patch));
      },
    },
  };
  if (overview) return update;
  const create: MutationField = {
    type,
    description:
      `Adds ${withArticle(singular)}, as POST /api/v1/${name} does; ` + "answers it as served, in the input's language",
    args: { input: { type: nonNull(inputs.record(family, 'Input')) } },
    resolve: async (_, args, context) => {
      const { writer, call, seen } = writing(context, `create_${singular}`, args);
      return served(context, seen, await writer.createRecord(call, name, args.input));
    },
  };
  const remove: MutationField = {
    type: nonNull(GraphQLID),
    description: `Deletes the ${singular}, as DELETE /api/v1/${name}/{uuid} does; answers its uuid`,
    args: { ...uuid, ...IF_MATCH },
    resolve: async (_, args, context) => {
      const { writer, call, seen } = writing(context, `delete_${singular}`, args);
      return (await writer.deleteRecord(call, name, target(seen(), args))).uuid;
    },
  };
  return { [`create_${singular}`]: create, ...update, [`delete_${singular}`]: remove };
}

/** A translated family's `create_`, `update_` and `delete_<singular>_translation`, as its REST translation routes. */
function translationMutations(family: Family, types: RecordTypes, inputs: InputTypes): Record<string, MutationField> {
  const type = nonNull(types.get(family.name));
  const { name, singular } = family;
  const overview = name === 'overview';
  const path = `${overview ? '/api/v1/overview' : `/api/v1/${name}/{uuid}`}/translations`;
  const target = (catalog: Catalog, args: Args) =>
    overview ? catalog.overview.uuid : existing(catalog, family, args.uuid);
  const uuid: GraphQLFieldConfigArgumentMap = overview ? {} : { uuid: { type: nonNull(GraphQLID) } };
  const language = {
    language: { type: nonNull(GraphQLString), description: 'The translation’s language (any case)' },
  };
  const field = `${singular}_translation`;
  return {
    [`create_${field}`]: {
      type,
      description:
        `Adds a translation of the ${singular}, as POST ${path} does; ` + `answers the ${singular} as served in it`,
      args: { ...uuid, input: { type: nonNull(inputs.translation(family, 'Input')) } },
      resolve: async (_, args, context) => {
        const { writer, call, seen } = writing(context, `create_${field}`, args);
        return served(context, seen, await writer.createTranslation(call, name, target(seen(), args), args.input));
      },
    },
    [`update_${field}`]: {
      type,
      description:
        `Changes one translation with a JSON Merge Patch, as PATCH ${path}/{language} does; answers the ` +
        `${singular} as served in it`,
      args: { ...uuid, ...language, patch: { type: nonNull(inputs.translation(family, 'Patch')) }, ...IF_MATCH },
      resolve: async (_, args, context) => {
        const { writer, call, seen } = writing(context, `update_${field}`, args);
        const uuid = target(seen(), args);
        const outcome = await writer.patchTranslation(call, name, uuid, String(args.language), args.patch);
        return served(context, seen, outcome);
      },
    },
    [`delete_${field}`]: {
      type,
      description:
        `Deletes one translation (never the default language’s), as DELETE ${path}/{language} does; answers the ` +
        `${singular} as served in the default language`,
      args: { ...uuid, ...language, ...IF_MATCH },
      resolve: async (_, args, context) => {
        const { writer, call, seen } = writing(context, `delete_${field}`, args);
        const uuid = target(seen(), args);
        return served(context, seen, await writer.deleteTranslation(call, name, uuid, String(args.language)));
      },
    },
  };
}

/** An actor's socials, as `/api/v1/actors/{uuid}/socials`: each answers the actor as served. */
function socialMutations(types: RecordTypes, inputs: InputTypes): Record<string, MutationField> {
  const actors = FAMILIES.get('actors')!;
  const type = nonNull(types.get('actors'));
  const schema = actors.schema.properties!.socials!.items!;
  const uuid = { uuid: { type: nonNull(GraphQLID), description: 'The actor' } };
  const social = { social: { type: nonNull(GraphQLString), description: 'The social network’s name (any case)' } };
  return {
    create_actor_social: {
      type,
      description: 'Adds a social network to the actor, as POST /api/v1/actors/{uuid}/socials does',
      args: { ...uuid, input: { type: nonNull(inputs.object('ActorSocial', schema, 'Input')) } },
      resolve: async (_, args, context) => {
        const { writer, call, seen } = writing(context, 'create_actor_social', args);
        return served(context, seen, await writer.createSocial(call, existing(seen(), actors, args.uuid), args.input));
      },
    },
    update_actor_social: {
      type,
      description: 'Changes one social with a JSON Merge Patch, as PATCH /api/v1/actors/{uuid}/socials/{social} does',
      args: {
        ...uuid,
        ...social,
        patch: { type: nonNull(inputs.object('ActorSocial', schema, 'Patch')) },
        ...IF_MATCH,
      },
      resolve: async (_, args, context) => {
        const { writer, call, seen } = writing(context, 'update_actor_social', args);
        const actor = existing(seen(), actors, args.uuid);
        return served(context, seen, await writer.patchSocial(call, actor, String(args.social), args.patch));
      },
    },
    delete_actor_social: {
      type,
      description: 'Removes one social, as DELETE /api/v1/actors/{uuid}/socials/{social} does',
      args: { ...uuid, ...social, ...IF_MATCH },
      resolve: async (_, args, context) => {
        const { writer, call, seen } = writing(context, 'delete_actor_social', args);
        const actor = existing(seen(), actors, args.uuid);
        return served(context, seen, await writer.deleteSocial(call, actor, String(args.social)));
      },
    },
  };
}

/**
 * The mutations of the catalog, generated from the families' JSON Schemas like the queries:
 * `create_`, `update_` and `delete_<singular>`, their translations and an actor's socials.
 * Each makes the write its REST route makes, through the same writer (roles, the gate,
 * `If-Match`), and answers the record as the queries serve it (a deleted record's uuid).
 *
 * @example
 * new GraphQLObjectType({ name: 'Mutation', fields: mutationFields(types) });
 */
export function mutationFields(types: RecordTypes): Record<string, MutationField> {
  const inputs = new InputTypes();
  const fields: Record<string, MutationField> = {};
  for (const name of FAMILY_NAMES) {
    const family = FAMILIES.get(name)!;
    Object.assign(fields, recordMutations(family, types, inputs));
    if (family.translation) Object.assign(fields, translationMutations(family, types, inputs));
  }
  return { ...fields, ...socialMutations(types, inputs) };
}
