// The GraphiQL page's script, bundled with GraphiQL and React by `npm run build` into
// dist/graphiql/ (graphiql.js and graphiql.css): the page loads nothing from anywhere else.
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import './page.css';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const url = '/api/graphql';
const fetcher = createGraphiQLFetcher({ url });

/** Asks the catalog for a record of each kind, so that the example queries name real ones. */
async function firstRecords() {
  const query = '{ episodes(size: 1) { items { uuid } } actors(size: 1) { items { uuid } } }';
  try {
    const response = await fetch(`${url}?query=${encodeURIComponent(query)}`, {
      headers: { accept: 'application/graphql-response+json' },
    });
    const { data } = await response.json();
    return { episode: data.episodes.items[0]?.uuid, actor: data.actors.items[0]?.uuid };
  } catch {
    return {};
  }
}

/**
 * Example operations, one per tab: a filtered page, a walk through links, languages, a curator's
 * write. Each is a
 * named operation (GraphiQL titles its tab with the name), in lines that fit the editor.
 */
function examples({ episode, actor }) {
  const tabs = [
    {
      query: `# Episodes over 40 minutes, longest first,
# with what REST sends as X-Pagination-*
query LongestEpisodes {
  episodes(
    filter: { duration: { gt: 2400000 } }
    sort: duration
    order: desc
    size: 5
  ) {
    items {
      title
      episode_num
      duration
      season { season_num }
    }
    page
    total_items
    total_pages
  }
}
`,
    },
  ];
  if (episode) {
    tabs.push({
      query: `# An episode, its season and the season's
# other episodes: one request, where REST
# takes several
query EpisodeAndSeason {
  episode(
    uuid: "${episode}"
  ) {
    title
    season {
      title
      episodes { episode_num title }
    }
    next_episode { title }
  }
}
`,
    });
  }
  if (actor) {
    tabs.push({
      query: `# An actor, the character they play and the
# seasons they are in, in Brazilian Portuguese
query ActorInPortuguese {
  actor(
    uuid: "${actor}"
    language: "pt-BR"
  ) {
    first_name
    last_name
    character { first_name last_name }
    seasons { title }
  }
}
`,
    });
  }
  tabs.push({
    query: `# A curator's write: put a MAINTAINER or
# ADMIN token in Headers, as
# {"Authorization": "Bearer …"}
mutation NewLocation {
  create_location(
    input: {
      name: "Old Cannery"
      language: "en-US"
    }
  ) {
    uuid
    name
    languages
  }
}
`,
  });
  return tabs;
}

void firstRecords().then((found) => {
  createRoot(document.getElementById('graphiql')).render(
    createElement(GraphiQL, { fetcher, defaultTabs: examples(found), defaultEditorToolsVisibility: false }),
  );
});
