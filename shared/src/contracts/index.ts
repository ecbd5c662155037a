/**
 * The HTTP contract of Sift's API (paths relative to `/api`), imported by the api and the web app
 * through `@sift/shared/contracts`. Shapes follow the product spec, section 3; errors are always
 * `ErrorBody` with the right HTTP status. One file per area of the API.
 */
export * from './common.ts';
export * from './accounts.ts';
export * from './files.ts';
export * from './uploads.ts';
export * from './upload-tracking.ts';
export * from './search.ts';
export * from './matching.ts';
export * from './import-report.ts';
export * from './export.ts';
export * from './admin.ts';
export * from './people.ts';
