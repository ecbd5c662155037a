import { UploadScreen } from '../features/upload';

/** /upload: uploads and import from a location, with the active upload sessions. The screen is the feature's; the page only places it. */
export function UploadPage() {
  return <UploadScreen />;
}
