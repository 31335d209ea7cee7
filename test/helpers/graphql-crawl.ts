// A crawl of a served catalog through GraphQL: every page of every list root field in every
// language, every field of every record, held against REST.
import { CatalogShape, postGraphQL, type ListRoot, type SingleRoot } from './graphql-shape.ts';
import { disagreements, SUBRESOURCES } from './graphql-rest-agreement.ts';
import { json, type TestServer } from './http.ts';

/** How much of the crawl is held against REST record by record. */
export interface CrawlOptions {
  /** Of each family's records in each language, in list order, every `compareEvery`-th is read from REST and compared (1: every one). */
  compareEvery: number;
}

/** What a crawl went through, and every problem it found, one line each. */
export interface CrawlReport {
  languages: string[];
  /** Records served by the list root fields, over every family and language. */
  records: number;
  pages: number;
  /** Records compared with REST, the singular root fields' included. */
  compared: number;
  problems: string[];
}

type JsonObject = Record<string, unknown>;

/** One page of a list root field, as the crawl asks for it. */
interface Page {
  page: number;
  size: number;
  total_items: number;
  total_pages: number;
  items: JsonObject[];
}

/** The errors of a GraphQL answer as one line, or undefined when it has none and a 200. */
function answerProblem(what: string, answer: { status: number; body: { errors?: unknown[] } }): string | undefined {
  if (answer.status === 200 && !answer.body.errors) return undefined;
  return `${what}: ${answer.status} ${JSON.stringify(answer.body.errors)}`;
}

class Crawl {
  readonly report: CrawlReport;
  /** The first record of each family in each language (`family language` → uuid), for the singular root fields. */
  private readonly firsts = new Map<string, string>();

  constructor(
    private readonly server: TestServer,
    private readonly shape: CatalogShape,
    private readonly options: CrawlOptions,
    languages: string[],
  ) {
    this.report = { languages, records: 0, pages: 0, compared: 0, problems: [] };
  }

  private problem(line: string | undefined): void {
    if (line) this.report.problems.push(line);
  }

  /** Where REST serves a record of `family`: under its uuid, or at the family's path for a family of one record (the overview), which has no list. */
  private restPath(family: string, uuid: string): string {
    return this.shape.lists.some((list) => list.family === family) ? `/api/v1/${family}/${uuid}` : `/api/v1/${family}`;
  }

  /** A REST answer's JSON, null for a 404; a problem (and undefined) for any other status. */
  private async restAnswer(url: string): Promise<unknown> {
    const response = await this.server.get(url);
    if (response.status === 200) return json(response);
    if (response.status === 404) return null;
    this.problem(`GET ${url}: ${response.status}`);
    return undefined;
  }

  /** REST's answers for one record in `language` (the record, and the subresources of the fields it lacks), compared with the record GraphQL gave. */
  private async compare(family: string, type: string, record: JsonObject, language: string): Promise<void> {
    const path = this.restPath(family, String(record.uuid));
    const rest = (await this.restAnswer(`${path}?language=${language}`)) as JsonObject | null | undefined;
    if (rest === undefined) return;
    if (rest === null) return this.problem(`GET ${path}?language=${language}: 404`);
    const subresources = new Map<string, unknown>();
    for (const { name } of this.shape.fieldsOf(type)) {
      const suffix = SUBRESOURCES[name];
      if (!suffix || name in rest) continue;
      const answer = await this.restAnswer(`${path}${suffix(language)}`);
      if (answer === undefined) return;
      subresources.set(name, answer);
    }
    this.report.compared++;
    this.report.problems.push(...disagreements(this.shape, type, record, { record: rest, subresources }, language));
  }

  /** Every page of one list in `language`: no errors, the item count REST's total, each compared record agreeing. */
  async list({ family, type }: ListRoot, language: string): Promise<void> {
    const size = this.server.config.MAX_PAGE_SIZE;
    const query = `query Page($page: Int!, $size: Int!, $language: String!) { page: ${family}(page: $page, size: $size, language: $language) { page size total_items total_pages items ${this.shape.selectionOf(type)} } }`;
    const at = `${family} in ${language}`;
    const uuids = new Set<string>();
    let listed = 0;
    let pages = 1;
    for (let page = 1; page <= pages; page++) {
      const answer = await postGraphQL<{ page: Page }>(this.server, query, { page, size, language });
      this.report.pages++;
      const problem = answerProblem(`${at}, page ${page}`, answer);
      if (problem) return this.problem(problem);
      const served = answer.body.data!.page;
      pages = served.total_pages;
      if (served.size !== size || served.page !== page)
        this.problem(
          `${at}, page ${page}: served page ${served.page} of size ${served.size}, asked ${page} of ${size}`,
        );
      for (const record of served.items) {
        if (listed === 0) this.firsts.set(`${family} ${language}`, String(record.uuid));
        if (listed % this.options.compareEvery === 0) await this.compare(family, type, record, language);
        listed++;
        uuids.add(String(record.uuid));
      }
      if (page === pages && (listed !== served.total_items || uuids.size !== listed))
        this.problem(
          `${at}: ${listed} records (${uuids.size} distinct) on ${pages} pages, total_items ${served.total_items}`,
        );
    }
    this.report.records += uuids.size;
    const rest = await this.server.get(`/api/v1/${family}?language=${language}&size=1`);
    const total = Number(rest.headers.get('x-pagination-item-total'));
    if (total !== uuids.size)
      this.problem(`${at}: GraphQL served ${uuids.size} records, REST's X-Pagination-Item-Total is ${total}`);
  }

  /** A singular root field in `language` (by the family's first record's uuid when it takes one), compared with REST. */
  async single({ name, type, family, byUuid }: SingleRoot, language: string): Promise<void> {
    const uuid = this.firsts.get(`${family} ${language}`);
    if (byUuid && !uuid) return this.problem(`${name} in ${language}: no record of ${family} was listed to ask it for`);
    const query = byUuid
      ? `query One($uuid: ID!, $language: String!) { record: ${name}(uuid: $uuid, language: $language) ${this.shape.selectionOf(type)} }`
      : `query One($language: String!) { record: ${name}(language: $language) ${this.shape.selectionOf(type)} }`;
    const answer = await postGraphQL<{ record: JsonObject | null }>(
      this.server,
      query,
      byUuid ? { uuid, language } : { language },
    );
    const at = `${name} in ${language}`;
    const problem = answerProblem(at, answer);
    if (problem) return this.problem(problem);
    const record = answer.body.data!.record;
    if (!record) return this.problem(`${at}: null`);
    if (byUuid && record.uuid !== uuid) this.problem(`${at}: asked for ${uuid}, answered ${String(record.uuid)}`);
    await this.compare(family, type, record, language);
  }
}

/**
 * Crawls a server's catalog through GraphQL, in every language of its overview: every page of
 * every list root field (the largest page, `MAX_PAGE_SIZE`), selecting every field of the
 * records (links by uuid), then each singular root field once per language. Every answer must
 * be a 200 without errors and each list must hold as many records as REST counts; the records
 * picked by `compareEvery` and those of the singular fields are compared with REST's answers.
 *
 * @example
 * const report = await crawlCatalog(server, { compareEvery: 1 });
 * report.problems; // [] when both faces agree
 */
export async function crawlCatalog(server: TestServer, options: CrawlOptions): Promise<CrawlReport> {
  const overview = await json<{ languages: string[] }>(await server.get('/api/v1/overview'));
  const shape = await CatalogShape.of(server);
  const crawl = new Crawl(server, shape, options, overview.languages);
  for (const list of shape.lists) for (const language of overview.languages) await crawl.list(list, language);
  for (const single of shape.singles) for (const language of overview.languages) await crawl.single(single, language);
  return crawl.report;
}
