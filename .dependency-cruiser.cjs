// Sift's import boundaries, checked by `npm run lint` (dependency-cruiser). Workspaces stack
// web → shared and api → ingest-worker → { clickhouse, spreadsheet } → shared; a workspace is
// reached only through its package name and `exports`, never by a relative path into its folder.
const WS = '(shared|clickhouse|spreadsheet|object-store|ingest-worker|api|web)';

/** A rule forbidding imports from `from` (path regex) to `to` (path regex). */
const never = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Modules import each other in one direction only, types included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-workspace-internals',
      comment:
        'Another workspace is imported by its package name (@sift/…), never by a path into its folder.',
      severity: 'error',
      from: { path: `^${WS}/` },
      to: { path: `^${WS}/`, pathNot: '^$1/', dependencyTypes: ['local'] },
    },
    never(
      'shared-imports-no-workspace',
      '@sift/shared is the bottom layer: contracts and constants every workspace may import.',
      '^shared/',
      '^(clickhouse|spreadsheet|object-store|ingest-worker|api|web)/',
    ),
    never(
      'libraries-stay-libraries',
      'clickhouse, spreadsheet and object-store know nothing of the worker, the api or the web app.',
      '^(clickhouse|spreadsheet|object-store)/',
      '^(ingest-worker|api|web)/',
    ),
    never(
      'object-store-stands-alone',
      'Where files are kept is its own concern: object-store and the libraries beside it do not import each other.',
      '^object-store/',
      '^(clickhouse|spreadsheet)/',
    ),
    never(
      'libraries-keep-out-of-object-store',
      'Where files are kept is its own concern: object-store and the libraries beside it do not import each other.',
      '^(clickhouse|spreadsheet)/',
      '^object-store/',
    ),
    never(
      'clickhouse-is-not-spreadsheet',
      'Reading files and storing rows stay apart.',
      '^clickhouse/',
      '^spreadsheet/',
    ),
    never(
      'spreadsheet-is-not-clickhouse',
      'Reading files and storing rows stay apart.',
      '^spreadsheet/',
      '^clickhouse/',
    ),
    never(
      'worker-below-api',
      'The ingest worker never imports the api or the web app.',
      '^ingest-worker/',
      '^(api|web)/',
    ),
    never('api-below-web', 'The api never imports the web app.', '^api/', '^web/'),
    never(
      'api-composes-worker-only-at-the-root',
      'Only the all-in-one composition (server.ts, config.ts) starts the ingest worker; the rest of the api shares contracts through @sift/shared.',
      '^api/src/(?!server\\.ts$|config\\.ts$)',
      '^ingest-worker/',
    ),
    never(
      'web-uses-contracts-only',
      'The browser app imports only the HTTP contract of the server side.',
      '^web/',
      '^(clickhouse|spreadsheet|object-store|ingest-worker|api)/|^shared/src/(?!contracts/)',
    ),
    never(
      'web-lib-is-pure',
      'web/src/lib holds pure helpers: it imports nothing of the app but other helpers.',
      '^web/src/lib/',
      '^web/src/(?!lib/)',
    ),
    never(
      'web-ui-effects-are-generic',
      'web/src/ui holds app-wide UI effects (toasts, saving a file): it imports only helpers.',
      '^web/src/ui/',
      '^web/src/(?!lib/|ui/)',
    ),
    never(
      'web-hooks-are-generic',
      'web/src/hooks holds generic React hooks.',
      '^web/src/hooks/',
      '^web/src/(?!lib/|hooks/|ui/)',
    ),
    never(
      'web-http-is-generic',
      'web/src/api is the HTTP client and the query keys, below every feature.',
      '^web/src/api/',
      '^web/src/(?!lib/|api/)',
    ),
    never(
      'web-components-are-generic',
      'web/src/components holds UI any screen may use; feature UI lives in its feature.',
      '^web/src/components/',
      '^web/src/(?!lib/|hooks/|ui/|components/|test/)',
    ),
    never(
      'web-auth-below-features',
      'Sign-in and the public configuration know nothing of features, layout or pages.',
      '^web/src/auth/',
      '^web/src/(features|layout|pages)/',
    ),
    never(
      'web-features-below-screens',
      'Features never import the layout or pages.',
      '^web/src/features/',
      '^web/src/(layout|pages)/',
    ),
    never('web-layout-below-pages', 'The layout never imports pages.', '^web/src/layout/', '^web/src/pages/'),
    {
      name: 'web-features-meet-through-their-index',
      comment:
        'A feature is reached from outside it only through its index.ts, which says what it offers; the rest is its own.',
      severity: 'error',
      from: { path: '^web/src/(?!features/)' },
      to: { path: '^web/src/features/[^/]+/(?!index\\.ts$)' },
    },
    {
      name: 'web-features-meet-each-other-through-their-index',
      comment: "One feature imports another only through that feature's index.ts.",
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: {
        path: '^web/src/features/[^/]+/',
        pathNot: ['^web/src/features/$1/', '^web/src/features/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'web-pages-only-place-screens',
      comment: "A page places a feature screen; what the screen shows and does is the feature's.",
      severity: 'error',
      from: { path: '^web/src/pages/' },
      to: { path: '^web/src/(?!features/[^/]+/index\\.ts$|auth/|components/)' },
    },
    never(
      'upload-tracking-has-one-owner-in-the-api',
      'On the api side only the upload intake (and the composition that builds it) calls upload tracking.',
      '^api/src/(?!files/upload-intake\\.ts$|app\\.ts$|server\\.ts$)',
      '^shared/src/upload-tracking\\.ts$',
    ),
    never(
      'export-area-owns-export',
      'Export (routes, services, writers, split rules) lives in api/src/export; search and files do not reach into it.',
      '^api/src/(search|files|accounts|auth)/',
      '^api/src/export/',
    ),
    never(
      'upload-tracking-through-the-progress-sink',
      'On the worker side, stages report to the progress sink; only it, the worker and the composition root touch upload tracking.',
      '^ingest-worker/src/(?!progress-sink\\.ts$|worker\\.ts$|runtime\\.ts$)',
      '^shared/src/upload-tracking\\.ts$',
    ),
    never(
      'pipeline-below-worker',
      'Ingest stages do not know the BullMQ worker or the composition root that run them.',
      '^ingest-worker/src/pipeline/',
      '^ingest-worker/src/(worker|runtime|main|config|progress-sink)\\.ts$',
    ),
    never(
      'rows-parts-below-repository',
      'The parts of the rows repository do not import the repository that fronts them.',
      '^clickhouse/src/rows/(?!rows\\.repository\\.ts$|index\\.ts$)',
      '^clickhouse/src/rows/(rows\\.repository|index)\\.ts$',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
