// Admin screens load as their own chunks (the customer bundle stays small), with the app's 120 s chunk limit.
export { lazyScreen } from '../../../app/lazy';
