/** Administration: the accounts and the data maintenance screens. */
export { AccountsScreen } from './components/AccountsScreen/AccountsScreen';
export { SystemScreen } from './components/SystemScreen/SystemScreen';
