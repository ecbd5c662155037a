import { PeopleScreen } from '../features/people';

/** /people: one entry per researcher across the author files. The screen is the feature's; the page only places it. */
export function PeoplePage() {
  return <PeopleScreen />;
}
