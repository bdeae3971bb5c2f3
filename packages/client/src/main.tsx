import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { AppRouter } from './app/router';
import { store } from './app/store';
import { AppToaster } from './components/AppToaster';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <AppRouter />
      <AppToaster />
    </Provider>
  </StrictMode>,
);
