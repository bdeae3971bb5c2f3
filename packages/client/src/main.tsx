import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import { App } from './app/App';
import { applyTheme } from './lib/theme';

applyTheme();

const root = createRoot(document.getElementById('root')!);
// A transition lets React render the first screen in slices that yield to the browser (no single long task on a slow phone).
startTransition(() => root.render(<App />));
