import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { AppRouter } from './app/router';
import { store } from './app/store';
import { AppToaster } from './components/AppToaster';
import { applyTheme } from './lib/theme';
import './styles.css';

applyTheme();

const root = createRoot(document.getElementById('root')!);
// A transition lets React render the first screen in slices that yield to the browser (no single long task on a slow phone).
startTransition(() =>
  root.render(
    <StrictMode>
      <Provider store={store}>
        <AppRouter />
        <AppToaster />
      </Provider>
    </StrictMode>,
  ),
);
