/** The account feature: profile setup before the app, and the signed-in account. */
export { useMe } from './api';
export { ProfileGate } from './components/ProfileGate/ProfileGate';
