/** `@sift/api`: the HTTP API and the all-in-one server. */
export { startSift, type RunningSift } from './server.ts';
export { createApp, type AppDeps } from './app.ts';
export { loadConfig, type Config } from './config.ts';
export { XlsxStreamWriter, XLSX_ROWS_PER_SHEET } from './export/xlsx-writer.ts';
export { DELETION_STEP_FILES } from './files/file-deletions.ts';
