/**
 * The layer rules (docs/DESIGN.md "Layers"), checked by test/architecture.test.ts in `npm test`.
 * Dependencies point down only:
 *
 *   http  →  protocol  →  service  →  database  →  search  →  fields
 *                                          ↘  store   →  fields
 *
 * Modules outside these folders (errors, config, security, metrics, render, io, operations …) are
 * shared utilities and are not layered here; every module, layered or not, is kept free of cycles.
 * Type-only imports count: a type is a dependency too.
 */
const layer = (name, forbidden, comment) => ({
  name: `${name}-imports-downward-only`,
  comment,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: `^src/(${forbidden.join('|')})/` },
});

module.exports = {
  forbidden: [
    layer(
      'fields',
      ['search', 'store', 'database', 'service', 'protocol', 'http'],
      'fields/ is the bottom: the Contact type and the field schema.',
    ),
    layer(
      'search',
      ['store', 'database', 'service', 'protocol', 'http'],
      'search/ knows contacts (fields/), never where they are stored or who asks.',
    ),
    layer(
      'store',
      ['search', 'database', 'service', 'protocol', 'http'],
      'store/ keeps records of fields/; the index is built above it (database/).',
    ),
    layer(
      'database',
      ['service', 'protocol', 'http'],
      'database/ joins a store and its index; it serves the service, never calls it.',
    ),
    layer(
      'service',
      ['protocol', 'http'],
      'service/ answers plain requests; bindings (protocol/, http/) decode and encode around it.',
    ),
    layer(
      'protocol',
      ['http'],
      'protocol/ holds the bindings; the HTTP front (http/) routes to them, not the other way.',
    ),
    {
      name: 'no-circular',
      comment: 'No module may reach itself through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
  },
};
