/** Upload: the upload screen, and the watcher that follows uploads from every screen. */
export { UploadScreen } from './components/UploadScreen/UploadScreen';
export { UploadWatcher } from './components/UploadWatcher/UploadWatcher';
export { ReindexNotice } from './components/ReindexNotice/ReindexNotice';
