import { SearchScreen } from '../features/search';

/** /search: the general search over the account's files. The screen is the feature's; the page only places it. */
export function SearchPage() {
  return <SearchScreen />;
}
