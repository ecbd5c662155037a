import { FilesScreen } from '../features/files';

/** /files: the account's files, with single and bulk delete and each file's import report. The screen is the feature's; the page only places it. */
export function FilesPage() {
  return <FilesScreen />;
}
