// Starts Swagger UI on the service's own OpenAPI document. Every asset comes from this
// service (see src/docs/reference-page.ts), so the page works with no internet.
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
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
