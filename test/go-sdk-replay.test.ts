import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tokenWithRole } from './helpers/admin.ts';
import { dataFile, startApp } from './helpers/http.ts';
import { replay } from './helpers/wire.ts';

// HawAPI's official Go SDK (github.com/HawAPI/go-sdk, hawapi/service.go) replayed byte for byte:
// net/http writes Host, User-Agent, Content-Length (only with a body), then the request's
// headers sorted (Authorization, and Content-Type: application/json on every request, a GET or
// DELETE without body included), then Accept-Encoding: gzip. Bodies are encoding/json's:
// Create* structs in field order with their omitempty rules and <, >, & escaped as \u003c…;
// a Patch first GETs the record into an `any`, then unmarshals the patch into that same `any`,
// which replaces it (the decoder does not merge into a map held by an interface), so the PATCH
// carries the Patch struct's fields as a map: keys sorted, empty omitempty fields left out.
// Only the uuids, hrefs and the token below are filled in at run time.

const app = await startApp();
const token = await tokenWithRole(app, 'MAINTAINER', 'gopher');
const port = Number(new URL(app.url).port);
const test = suite("HawAPI's Go SDK, replayed byte for byte");
test.after(async () => app.close());

function goRequest(method: string, path: string, body?: string): string {
  const length = body === undefined ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  return `${method} /api/v1/${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: Go-http-client/1.1\r\n${length}Authorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept-Encoding: gzip\r\n\r\n${body ?? ''}`;
}

async function go(
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const answer = await replay(port, goRequest(method, path, body));
  return { status: answer.status, json: answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : {} };
}

test('an untranslated family: CreateActor, PatchActor with the record read back, DeleteActor', async () => {
  const seasons = await dataFile('seasons.json');
  const [first, second] = [seasons[0]!.href, seasons[1]!.href];
  // client.CreateActor(hawapi.CreateActor{FirstName: "Marisol", LastName: "Quintas", Nicknames: []string{"Mari"},
  //   Socials: []hawapi.Social{{Social: "Mastodon", Handle: "@mari", URL: "https://social.example.net/@mari"}},
  //   Nationality: "Cape Verdean", BirthDate: "1991-06-14", Gender: 2, Seasons: []string{first, second},
  //   Awards: []string{"Tide & Signal Award (2024)"}, Thumbnail: "https://images.example.org/mq.jpg"})
  const created = await go(
    'POST',
    'actors',
    `{"first_name":"Marisol","last_name":"Quintas","nicknames":["Mari"],"socials":[{"social":"Mastodon","handle":"@mari","url":"https://social.example.net/@mari"}],"nationality":"Cape Verdean","birth_date":"1991-06-14","gender":2,"seasons":["${first}","${second}"],"awards":["Tide \\u0026 Signal Award (2024)"],"thumbnail":"https://images.example.org/mq.jpg"}`,
  );
  assert.is(created.status, 201, JSON.stringify(created.json));
  assert.equal(created.json.awards, ['Tide & Signal Award (2024)']);
  const uuid = String(created.json.uuid);

  // client.PatchActor(id, hawapi.PatchActor{...every field of the actor read back, Nationality: "Portuguese"}):
  // the SDK's GET, then the PATCH of the patch struct as a map (sorted keys, nested objects too).
  const read = await go('GET', `actors/${uuid}`);
  assert.is(read.status, 200);
  const patched = await go(
    'PATCH',
    `actors/${uuid}`,
    `{"awards":["Tide \\u0026 Signal Award (2024)"],"birth_date":"1991-06-14","first_name":"Marisol","gender":2,"last_name":"Quintas","nationality":"Portuguese","nicknames":["Mari"],"seasons":["${first}","${second}"],"socials":[{"handle":"@mari","social":"Mastodon","url":"https://social.example.net/@mari"}],"thumbnail":"https://images.example.org/mq.jpg"}`,
  );
  assert.is(patched.status, 200, JSON.stringify(patched.json));
  // PatchActor then reads the record again (FindActor).
  const after = await go('GET', `actors/${uuid}`);
  assert.equal(after.json, { ...read.json, nationality: 'Portuguese', updated_at: after.json.updated_at });
  assert.ok(String(after.json.updated_at) >= String(read.json.updated_at));

  assert.is((await go('DELETE', `actors/${uuid}`)).status, 204);
  assert.is((await go('GET', `actors/${uuid}`)).status, 404);
});

test('a translated family: CreateEpisode, PatchEpisode with the record read back, DeleteEpisode', async () => {
  const season = (await dataFile('seasons.json'))[2]!;
  const next = (season.episodes as string[]).length + 1;
  // client.CreateEpisode(hawapi.CreateEpisode{Title: "Salt <and> Static", Description: "A Go client's episode",
  //   Language: "en-US", Duration: 1500000, Season: season.href, EpisodeNum: next, Thumbnail: "https://images.example.org/e.jpg"})
  const created = await go(
    'POST',
    'episodes',
    `{"title":"Salt \\u003cand\\u003e Static","description":"A Go client's episode","language":"en-US","duration":1500000,"season":"${String(season.href)}","episode_num":${next},"thumbnail":"https://images.example.org/e.jpg"}`,
  );
  assert.is(created.status, 201, JSON.stringify(created.json));
  assert.is(created.json.title, 'Salt <and> Static');
  assert.is(created.json.episode_num, next);
  const uuid = String(created.json.uuid);
  const prev = String(created.json.prev_episode);

  // client.PatchEpisode(id, hawapi.PatchEpisode{...every field read back, Title: "Salt and Static"}).
  const read = await go('GET', `episodes/${uuid}`);
  assert.is(read.status, 200);
  const patched = await go(
    'PATCH',
    `episodes/${uuid}`,
    `{"description":"A Go client's episode","duration":1500000,"episode_num":${next},"language":"en-US","prev_episode":"${prev}","season":"${String(season.href)}","thumbnail":"https://images.example.org/e.jpg","title":"Salt and Static"}`,
  );
  assert.is(patched.status, 200, JSON.stringify(patched.json));
  const after = await go('GET', `episodes/${uuid}`);
  assert.equal(after.json, { ...read.json, title: 'Salt and Static', updated_at: after.json.updated_at });

  // The same patch in another language writes (here: creates) that translation.
  const translated = await go(
    'PATCH',
    `episodes/${uuid}`,
    `{"description":"Um episódio de um cliente Go","duration":1500000,"episode_num":${next},"language":"pt-BR","prev_episode":"${prev}","season":"${String(season.href)}","thumbnail":"https://images.example.org/e.jpg","title":"Sal e Estática"}`,
  );
  assert.is(translated.status, 200, JSON.stringify(translated.json));
  assert.is(translated.json.language, 'pt-BR');
  assert.is((await go('GET', `episodes/${uuid}?language=en-US`)).json.title, 'Salt and Static');

  assert.is((await go('DELETE', `episodes/${uuid}`)).status, 204);
  assert.is((await go('GET', `episodes/${uuid}`)).status, 404);
  assert.is((await go('GET', `episodes/${uuid}/translations/pt-BR`)).status, 404);
});

test.run();
