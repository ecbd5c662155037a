/**
 * The data maintenance actions of /admin/system (spec section 2, Admin System): what each card
 * says, which call it makes and which fields of its DeletionResult it shows.
 */
import type { DeletionResult } from '@sift/shared/contracts';
import { formatDateTime } from '../../lib/format';
import type { MaintenanceKind } from './api';

/** The product's search database, named in the UI as the spec asks. */
export const SEARCH_ENGINE_NAME = 'ClickHouse';

export type Field = [label: string, value: (r: DeletionResult) => string];
const yesNo = (flag: boolean) => (flag ? 'Yes' : 'No');
const count = (n: number) => n.toLocaleString();

const FIELDS = {
  filesDeleted: ['Stored files deleted', (r) => count(r.filesDeleted)],
  fileRecords: ['File records deleted', (r) => count(r.fileRecordsDeleted)],
  fileData: ['File data records deleted', (r) => count(r.fileDataRecordsDeleted)],
  exports: ['Export history records deleted', (r) => count(r.exportHistoryRecordsDeleted)],
  total: ['Total records deleted', (r) => count(r.totalRecordsDeleted)],
  searchIndex: [`${SEARCH_ENGINE_NAME} cleared`, (r) => yesNo(r.clickHouseCollectionsCleared > 0)],
  tracking: ['Upload tracking cleared', (r) => yesNo(r.uploadTrackingDataCleared > 0)],
  reindexed: ['Files queued for reindexing', (r) => count(r.clickHouseReindexed)],
  duration: ['Duration', (r) => `${count(r.durationMs)} ms`],
  completed: ['Completed at', (r) => formatDateTime(r.timestamp)],
} satisfies Record<string, Field>;

export interface MaintenanceAction {
  kind: Exclude<MaintenanceKind, 'massDelete'>;
  label: string;
  description: string;
  action: string;
  fields: Field[];
  /** Deletes data (a confirmation first; the spec's 'deleted successfully' toasts). */
  destructive: boolean;
}

export const MAINTENANCE_ACTIONS: MaintenanceAction[] = [
  {
    kind: 'files',
    label: 'Files',
    description: 'Delete every uploaded file: the stored originals and the file records.',
    action: 'Delete Files',
    fields: [FIELDS.filesDeleted, FIELDS.fileRecords, FIELDS.total, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'fileData',
    label: 'File Data',
    description: 'Delete the searchable rows of every file; the file records stay.',
    action: 'Delete File Data',
    fields: [FIELDS.fileData, FIELDS.total, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'exportHistory',
    label: 'Export History',
    description: 'Delete every export history entry and its kept file.',
    action: 'Delete Export History',
    fields: [FIELDS.exports, FIELDS.total, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'searchIndex',
    label: SEARCH_ENGINE_NAME,
    description: `Clear the ${SEARCH_ENGINE_NAME} search index (every searchable row).`,
    action: `Clear ${SEARCH_ENGINE_NAME}`,
    fields: [FIELDS.searchIndex, FIELDS.fileData, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'uploadTracking',
    label: 'Upload Tracking',
    description: 'Delete every upload session and its tracking data.',
    action: 'Clear Upload Tracking',
    fields: [FIELDS.tracking, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'reindex',
    label: `${SEARCH_ENGINE_NAME} Reindex`,
    description: `Rebuild the ${SEARCH_ENGINE_NAME} search index from all database files (each file is ingested again from its original; searches stay complete meanwhile, a notice on Search shows the progress).`,
    action: `Rebuild ${SEARCH_ENGINE_NAME} Index`,
    fields: [FIELDS.reindexed, FIELDS.duration],
    destructive: false,
  },
];

export const MASS_DELETE_FIELDS: Field[] = [
  FIELDS.fileData,
  FIELDS.fileRecords,
  FIELDS.exports,
  FIELDS.total,
  FIELDS.searchIndex,
  FIELDS.tracking,
  FIELDS.duration,
  FIELDS.completed,
];
