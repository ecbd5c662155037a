import { AuthorsScreen } from '../features/search';

/** /authors: the search over the AUTHOR files. The screen is the feature's; the page only places it. */
export function AuthorsPage() {
  return <AuthorsScreen />;
}
