/** Files: the account's files screen, and their list as other features read it. */
export { useFiles } from './api';
export { FilesScreen } from './components/FilesScreen/FilesScreen';
