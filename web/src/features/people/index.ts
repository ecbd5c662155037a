/** People: one entry per researcher across the account's author files (issue 35). */
export { PeopleScreen } from './components/PeopleScreen/PeopleScreen';
export { PersonScreen } from './components/PersonScreen/PersonScreen';
export { SameNameReview } from './components/SameNameReview/SameNameReview';
