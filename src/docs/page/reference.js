// The reference page: every operation is listed as soon as the document arrives (a few
// milliseconds of drawing), then Swagger UI (seconds of script on a slow machine) takes over
// the page with "Try it out" and Authorize. Every asset comes from this service (see
// src/docs/reference-page.ts), so the page works with no internet.
const DOCUMENT = '/api/openapi.json';
const SWAGGER_UI = '/api/docs/swagger-ui-bundle.js';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** An element with a class and text, in Swagger UI's own class names so that its stylesheet draws it. */
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** One row per operation, grouped and ordered as Swagger UI lists them; each links to the operation it opens. */
function drawIndex(doc, into) {
  const wrapper = element('div', 'wrapper');
  wrapper.append(
    element('h1', 'reference-index-title', doc.info.title),
    element('p', 'reference-index-note', 'Loading "Try it out" and Authorize…'),
  );
  for (const tag of doc.tags ?? []) {
    const section = element('div', 'opblock-tag-section');
    section.append(element('h3', 'opblock-tag', tag.name));
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item)) {
        if (!METHODS.includes(method) || !operation.tags?.includes(tag.name)) continue;
        // Swagger UI's deep link: followed when it takes over if clicked before.
        const row = element('a', `opblock opblock-${method} reference-index-operation`);
        row.href = `#/${encodeURIComponent(tag.name)}/${encodeURIComponent(operation.operationId)}`;
        const summary = element('span', `opblock-summary opblock-summary-${method}`);
        summary.append(
          element('span', 'opblock-summary-method', method.toUpperCase()),
          element('span', 'opblock-summary-path', path),
          element('span', 'opblock-summary-description', operation.summary ?? ''),
        );
        row.append(summary);
        section.append(row);
      }
    wrapper.append(section);
  }
  into.replaceChildren(wrapper);
}

/** Starts Swagger UI on the document already read; the index goes once Swagger UI has drawn an operation. */
function startSwaggerUi(spec, index) {
  const reference = document.getElementById('reference');
  const drawn = new MutationObserver(() => {
    if (!reference.querySelector('.opblock')) return;
    drawn.disconnect();
    index.remove();
  });
  drawn.observe(reference, { childList: true, subtree: true });
  const script = document.createElement('script');
  script.src = SWAGGER_UI;
  script.onload = () => {
    window.ui = SwaggerUIBundle({
      spec,
      dom_id: '#reference',
      presets: [SwaggerUIBundle.presets.apis],
      layout: 'BaseLayout',
      deepLinking: true,
      // Families and their endpoints at a glance; one click opens an operation.
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      filter: true,
      displayRequestDuration: true,
      // The default sends the document to an online validator badge.
      validatorUrl: null,
    });
  };
  script.onerror = () => {
    index.querySelector('.reference-index-note').textContent = `${SWAGGER_UI} could not be loaded: no "Try it out".`;
    index.removeAttribute('aria-busy');
  };
  document.body.append(script);
}

const index = document.getElementById('reference-index');
fetch(DOCUMENT)
  .then((response) => {
    if (!response.ok) throw new Error(`${DOCUMENT} answered ${response.status}`);
    return response.json();
  })
  .then((spec) => {
    drawIndex(spec, index);
    // After a frame, so the index shows before Swagger UI's script holds the page; the mark
    // says when (npm run bench reads it).
    requestAnimationFrame(() =>
      setTimeout(() => {
        performance.mark('reference-index-shown');
        startSwaggerUi(spec, index);
      }, 0),
    );
  })
  .catch((error) => {
    index.textContent = `The API reference could not be loaded: ${error.message}`;
    index.removeAttribute('aria-busy');
  });
