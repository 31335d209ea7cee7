import { FAMILY_NAMES, type FamilyName } from '../../catalog/families.ts';
import { drawnPicture } from '../../catalog/pictures/references.ts';
import type { SiteManifest } from '../manifest.ts';

const isFamily = (name: string | undefined): name is FamilyName => FAMILY_NAMES.includes(name as FamilyName);

/**
 * The families a read of `path` needs loaded: the one its path names (the overview for `/api`,
 * the actors for their socials), every one when it expands relations; none for a path no
 * family serves (its answer is a 404).
 *
 * @example
 * readNeeds('/api/v1/episodes/…/translations', new URLSearchParams()); // ['episodes']
 */
export function readNeeds(path: string, query: URLSearchParams): readonly FamilyName[] {
  if (query.has('expand')) return FAMILY_NAMES;
  if (/^\/api\/?$/.test(path)) return ['overview'];
  const name = /^\/api\/v1\/([^/?]+)/.exec(path)?.[1];
  return isFamily(name) ? [name] : [];
}

/**
 * The families drawing the picture at `path` needs: its record's family (an episode's shows its
 * season's number), every one when a record of another family names it (`sharedPictures`), for
 * the worker to know that some record does.
 */
export function pictureNeeds(path: string, manifest: SiteManifest): readonly FamilyName[] {
  if (manifest.sharedPictures.includes(path)) return FAMILY_NAMES;
  const drawn = drawnPicture(path);
  if (!drawn) return [];
  return drawn.family === 'episodes' ? ['episodes', 'seasons'] : [drawn.family];
}
