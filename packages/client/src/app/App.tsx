import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { AppToaster } from '../components/AppToaster';
import { store } from '../core/store';
import { AppRouter } from './router';

/** The providers around every screen: the one store, the router with its guarded routes, the toasts. */
export function App() {
  return (
    <StrictMode>
      <Provider store={store}>
        <AppRouter />
        <AppToaster />
      </Provider>
    </StrictMode>
  );
}
