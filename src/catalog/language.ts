import { HttpError } from '../lib/http-error.ts';
import type { Catalog } from './catalog.ts';

/**
 * The catalog language `asked` names (any case), or a 400 listing the available ones.
 *
 * @example
 * knownLanguage(catalog, 'PT-br'); // 'pt-BR'
 */
export function knownLanguage(catalog: Catalog, asked: string): string {
  const found = catalog.languages.find((l) => l.toLowerCase() === asked.toLowerCase());
  if (!found) throw new HttpError(400, `Unknown language '${asked}'; available: ${catalog.languages.join(', ')}`);
  return found;
}
