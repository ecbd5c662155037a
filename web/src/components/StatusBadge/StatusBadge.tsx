import { Badge } from '@mantine/core';
import type { FileRecord } from '@sift/shared/contracts';

/** Spec section 4: PROCESSING yellow, PROCESSED green, anything else red (failed). */
export function statusColor(status: string): 'yellow' | 'green' | 'red' {
  if (status === 'PROCESSING') return 'yellow';
  if (status === 'PROCESSED') return 'green';
  return 'red';
}

/** A file's status; never narrower than its word (a table squeezing it once cut it to "PRO…"). */
export function StatusBadge({ status }: { status: FileRecord['status'] | string }) {
  return (
    <Badge color={statusColor(status)} variant="light" miw="max-content">
      {status || 'FAILED'}
    </Badge>
  );
}

/** AUTHOR files are highlighted, others use the default colour. */
export function FileTypeBadge({ fileType }: { fileType: FileRecord['fileType'] | string }) {
  return (
    <Badge
      color={fileType === 'AUTHOR' ? 'grape' : 'gray'}
      variant={fileType === 'AUTHOR' ? 'filled' : 'outline'}
      miw="max-content"
    >
      {fileType}
    </Badge>
  );
}
