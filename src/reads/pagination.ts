import type { ListQuery } from '../catalog/list-request.ts';
import type { ReadExchange } from './types.ts';

/**
 * Paging headers of a list answer: the `X-Pagination-*` quartet HawAPI clients read and an
 * RFC 8288 `Link` header (first, prev, next, last) whose targets keep every other parameter.
 * Targets are path-absolute (a site's base included), so the headers do not depend on the
 * Host they were asked on.
 *
 * @example
 * pageHeaders(x, { page: 2, size: 10, ... }, 35, 10);
 * // { 'X-Pagination-Page-Index': '2', ..., Link: '</api/v1/actors?page=1&size=10>; rel="first", ...' }
 */
export function pageHeaders<Entry>(
  x: ReadExchange<Entry>,
  query: ListQuery,
  total: number,
  onPage: number,
): Record<string, string> {
  const pages = Math.ceil(total / query.size);
  const last = Math.max(1, pages);
  // Parsed once; each target sets its own page on it.
  const params = new URLSearchParams(x.querystring);
  const target = (page: number) => {
    params.set('page', String(page));
    params.set('size', String(query.size));
    return `<${x.publicPath}?${params}>`;
  };
  const links = [`${target(1)}; rel="first"`];
  if (query.page > 1) links.push(`${target(Math.min(query.page - 1, last))}; rel="prev"`);
  if (query.page < pages) links.push(`${target(query.page + 1)}; rel="next"`);
  links.push(`${target(last)}; rel="last"`);
  return {
    'X-Pagination-Page-Index': String(query.page),
    'X-Pagination-Page-Size': String(onPage),
    'X-Pagination-Page-Total': String(pages),
    'X-Pagination-Item-Total': String(total),
    Link: links.join(', '),
  };
}
