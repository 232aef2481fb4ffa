import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient, Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { initI18n } from './shared/i18n/i18n';
import './styles/global.css';

async function start() {
  await initI18n();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html lacks #root');
  createRoot(root).render(
    <StrictMode>
      <Providers client={createQueryClient()}>
        <RouterProvider router={createAppRouter()} />
      </Providers>
    </StrictMode>,
  );
}

void start();
