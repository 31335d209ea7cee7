/** A host's published limits on what a site may hold. */
interface HostLimit {
  host: string;
  files?: number;
  fileBytes?: number;
  filesPerFolder?: number;
  siteBytes?: number;
}

/** The limits of the hosts the docs name (docs/static-site.md), the strictest first where they overlap. */
export const HOST_LIMITS: readonly HostLimit[] = [
  { host: 'Cloudflare Pages', files: 20_000, fileBytes: 25 * 2 ** 20 },
  { host: 'Netlify', filesPerFolder: 54_000 },
  { host: 'GitHub Pages', siteBytes: 2 ** 30 },
];

/**
 * Which host limits a site of `files` (path → size) exceeds, each said in one line naming the
 * host, the limit and the figure.
 *
 * @example
 * exceededLimits(new Map([['a', 30 * 2 ** 20]])); // ['Cloudflare Pages: a is 30.0 MiB, over 25 MiB a file']
 */
export function exceededLimits(files: ReadonlyMap<string, number>): string[] {
  const lines: string[] = [];
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const total = [...files.values()].reduce((sum, size) => sum + size, 0);
  // Entries of each folder: its files and its folders.
  const perFolder = new Map<string, Set<string>>();
  for (const path of files.keys()) {
    const parts = path.split('/');
    parts.forEach((part, depth) => {
      const folder = parts.slice(0, depth).join('/');
      (perFolder.get(folder) ?? perFolder.set(folder, new Set()).get(folder)!).add(part);
    });
  }
  for (const { host, files: most, fileBytes, filesPerFolder, siteBytes } of HOST_LIMITS) {
    if (most !== undefined && files.size > most) lines.push(`${host}: ${files.size} files, over ${most}`);
    if (fileBytes !== undefined)
      for (const [path, size] of files)
        if (size > fileBytes) lines.push(`${host}: ${path} is ${mib(size)}, over ${mib(fileBytes)} a file`);
    if (filesPerFolder !== undefined)
      for (const [folder, entries] of perFolder)
        if (entries.size > filesPerFolder)
          lines.push(`${host}: ${folder || '/'} holds ${entries.size} entries, over ${filesPerFolder}`);
    if (siteBytes !== undefined && total > siteBytes)
      lines.push(`${host}: the site is ${mib(total)}, over ${mib(siteBytes)}`);
  }
  return lines;
}
