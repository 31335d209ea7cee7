/**
 * Where a site lives: its base path, what its files put before picture paths, and what the exporting server was told.
 */
export interface SiteAddress {
  /** `/` or `/<repo>/`. */
  base: string;
  /**
   * What the files for clients without the worker put before `/images/…`: the site's URL without its trailing slash,
   * or `''`.
   */
  site: string;
  /** The `PUBLIC_URL` the exporting server answers with (replaced by `site` in the files). */
  served: string;
}

/** Stands for an unknown site URL while exporting: replaced in every file, never published. */
const UNKNOWN_ORIGIN = 'http://site.invalid';

/**
 * The site's address from `--base` and `--url`: the base is `/` or path segments between
 * slashes, and agrees with the URL's path when both are given.
 *
 * @example
 * siteAddress('/repo/', undefined); // { base: '/repo/', site: '', served: 'http://site.invalid/repo' }
 * siteAddress(undefined, 'https://ana.github.io/repo'); // { base: '/repo/', site: 'https://ana.github.io/repo', … }
 */
export function siteAddress(base: string | undefined, url: string | undefined): SiteAddress | { error: string } {
  let fromUrl: URL | undefined;
  if (url !== undefined) {
    try {
      fromUrl = new URL(url);
    } catch {
      return { error: `--url must be an absolute http(s) URL (got '${url}')` };
    }
    if (!/^https?:$/.test(fromUrl.protocol) || fromUrl.search || fromUrl.hash)
      return { error: `--url must be an http(s) URL with no query or fragment (got '${url}')` };
  }
  const path = fromUrl ? fromUrl.pathname.replace(/\/?$/, '/') : '/';
  const chosen = base ?? path;
  if (!/^\/(?:[A-Za-z0-9._~-]+\/)*$/.test(chosen) || /\/\.\.?\//.test(chosen))
    return { error: `--base must be / or /<folder>/, with letters, digits, '.', '_', '~' and '-' (got '${chosen}')` };
  if (fromUrl && chosen !== path)
    return { error: `--base '${chosen}' and the path of --url '${path}' differ: give one of them` };
  const origin = fromUrl ? fromUrl.origin : UNKNOWN_ORIGIN;
  const served = `${origin}${chosen}`.replace(/\/$/, '');
  return { base: chosen, served, site: fromUrl ? served : chosen.replace(/\/$/, '') };
}
