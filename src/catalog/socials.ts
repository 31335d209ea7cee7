/** One of an actor's social networks, as the data files and the API have it. */
export type Social = { social: string; handle?: string; url: string };

/** An actor record's socials (none: an empty list). */
export function socialsOf(actor: Readonly<Record<string, unknown>>): Social[] {
  return Array.isArray(actor.socials) ? (actor.socials as Social[]) : [];
}

/**
 * The actor's social on the network `name`, matched without regard to case, as every route
 * of `/api/v1/actors/{uuid}/socials/{social}` looks it up.
 *
 * @example
 * socialNamed(actor, 'mastodon'); // { social: 'Mastodon', handle: '@livia', url: '…' }
 */
export function socialNamed(actor: Readonly<Record<string, unknown>>, name: string): Social | undefined {
  const wanted = name.toLowerCase();
  return socialsOf(actor).find((s) => typeof s.social === 'string' && s.social.toLowerCase() === wanted);
}
