// Loaded first by every page of the static site (bundled into the site's register.js): it
// registers the worker and holds the page's `fetch` calls until the worker controls the page,
// so that a request sent on the first visit or after a hard reload is answered by the engine,
// never by the static host (which has no file for a list with a query, and no 405 for a write).

/** The site's base: where this script is (`<base>register.js`). */
const script = document.currentScript as HTMLScriptElement | null;
const base = new URL('.', script?.src ?? location.href).pathname;

/** Resolves once the worker controls this page. */
function controlled(): Promise<void> {
  const { serviceWorker } = navigator;
  return new Promise((resolve) => {
    if (serviceWorker.controller) return resolve();
    serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true });
    // A hard reload leaves the page uncontrolled though a worker is active: it claims the page when asked.
    void serviceWorker.ready.then((ready) => ready.active?.postMessage('claim'));
    if (serviceWorker.controller) resolve();
  });
}

const ready: Promise<void> =
  'serviceWorker' in navigator
    ? navigator.serviceWorker.register(`${base}sw.js`, { scope: base }).then(controlled)
    : Promise.reject(new Error('this browser has no Service Workers: the read API needs the server'));

const pageFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  if (!navigator.serviceWorker?.controller) await ready;
  return pageFetch(input, init);
};
/** Resolves once the worker has kept the site's pages and files: from then on the site works offline. */
const offline = ready.then(
  () =>
    new Promise<void>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      navigator.serviceWorker.controller?.postMessage('offline', [channel.port2]);
    }),
);

/**
 * For a page's own code: `siteReady` once API requests are answered by the worker, `siteOffline` once the site works
 * offline.
 */
Object.assign(window, { siteReady: ready, siteOffline: offline });
