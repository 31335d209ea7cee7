// npm run bench:site [-- --quick]: the static site of the embedded catalog (npm run export-site):
// its export time and size, what a browser downloads, a cold page's first answer, and the worker's
// answers to the read mix of `npm run bench` beside the compiled server's, in headless Chromium.
import { parseArgs } from 'node:util';
import { recordSection } from './bench/document.ts';
import { siteTable } from './bench/site-report.ts';
import { measureSite } from './bench/site.ts';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, data: { type: 'string', default: './data' } },
});
const quick = values.quick!;
console.error('… exporting, then asking the site in headless Chromium');
const figures = await measureSite(values.data!, quick ? 1 : 5, quick ? 2 : 40);
const text = siteTable(figures, values.data!);
console.log(text);
if (!quick) await recordSection('site', 'Static site (npm run bench:site)', text);
