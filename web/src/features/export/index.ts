/** Exports: the export dialog the searches open, the download that follows, and the history screen. */
export { ExportDialog } from './components/ExportDialog/ExportDialog';
export { ExportsScreen } from './components/ExportsScreen/ExportsScreen';
export { datedFilename } from './exportFilename';
export { useResultsExport } from './useResultsExport';
