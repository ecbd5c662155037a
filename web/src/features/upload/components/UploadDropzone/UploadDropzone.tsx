import { useId, useRef, useState, type DragEvent } from 'react';
import { Text } from '@mantine/core';
import { ACCEPT_ATTRIBUTE } from '../../fileValidation';
import classes from './UploadDropzone.module.css';

export interface UploadDropzoneProps {
  /** Files dropped on the zone. */
  onDrop: (files: File[]) => void;
  /** Files chosen with the file picker. */
  onSelect: (files: File[]) => void;
  disabled?: boolean;
}

/**
 * A drop zone that is also a click-to-browse: a real, labelled `<input type="file" multiple>`
 * (keyboard: Tab to it, Enter or Space opens the picker) with the whole zone as its label.
 */
export function UploadDropzone({ onDrop, onSelect, disabled = false }: UploadDropzoneProps) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  const onDragEnter = (event: DragEvent) => {
    event.preventDefault();
    depth.current += 1;
    if (!disabled) setDragging(true);
  };
  const onDragLeave = (event: DragEvent) => {
    event.preventDefault();
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
  };
  const onDropFiles = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (disabled) return;
    onDrop(Array.from(event.dataTransfer.files));
  };

  return (
    <div
      className={classes.zone}
      data-dragging={dragging || undefined}
      data-disabled={disabled || undefined}
      onDragEnter={onDragEnter}
      onDragLeave={onDragLeave}
      onDragOver={onDragOver}
      onDrop={onDropFiles}
    >
      <input
        ref={input}
        id={inputId}
        className={classes.input}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        disabled={disabled}
        aria-describedby={hintId}
        onChange={(event) => {
          const files = Array.from(event.currentTarget.files ?? []);
          // Reset so choosing the same file again fires another change.
          event.currentTarget.value = '';
          onSelect(files);
        }}
      />
      <label htmlFor={inputId} className={classes.label}>
        <UploadIcon />
        <Text fw={600} size="lg">
          Drag files here or click to browse
        </Text>
        <Text id={hintId} c="dimmed" size="sm">
          Excel (.xlsx, .xls) or CSV files, several at once. Files start uploading automatically as soon as
          you select or drop them.
        </Text>
      </label>
    </div>
  );
}

function UploadIcon() {
  return (
    <svg
      width="40"
      height="40"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      aria-hidden
    >
      <path d="M12 16V4M7 9l5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
    </svg>
  );
}
