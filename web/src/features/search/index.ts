/** Search: the general search and the Authors search screens, and the record drawer (People opens it too). */
export { AuthorsScreen } from './components/AuthorsScreen/AuthorsScreen';
export { SearchScreen } from './components/SearchScreen/SearchScreen';
export { RecordDrawer } from './components/RecordDrawer/RecordDrawer';
