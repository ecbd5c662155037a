/** Search: the general search and the Authors search screens. */
export { AuthorsScreen } from './components/AuthorsScreen/AuthorsScreen';
export { SearchScreen } from './components/SearchScreen/SearchScreen';
