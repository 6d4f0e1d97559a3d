// The react-19 compatibility patch of antd 5 must run before anything imports antd.
import '@ant-design/v5-patch-for-react-19';
// Then what the first page waits for, asked for at once (before i18n.ts waits for its catalogue).
import './early-loads';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { pruneModulePreloadLinks } from './preload-links';

pruneModulePreloadLinks();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
