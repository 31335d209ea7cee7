import type { ReadSettings } from '../../reads/types.ts';
import type { ServedCatalog } from '../../served/served-catalog.ts';

/** What the catalog routes need: the served catalog and how its answers are served. */
export interface RouteDeps extends ReadSettings {
  served: ServedCatalog;
}
