// First, so that every sheet a module or a lazy chunk brings comes after the global one.
import './styles/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Providers } from './app/providers';
import { AppRoutes } from './app/router';
import { StartFailure } from './app/start-failure';
import { expectFirstPaint, markFirstPaint } from './shared/after-first-paint';
import { initI18n, initialLocale } from './shared/i18n/i18n';

async function start() {
  expectFirstPaint();
  // Whatever happens to the first render, what waits for its paint follows soon after.
  setTimeout(markFirstPaint, 4_000);
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html lacks #root');
  try {
    await initI18n();
  } catch (error) {
    // The language's strings did not arrive: say so instead of leaving a blank page.
    console.error('The app could not start', error);
    createRoot(root).render(<StartFailure locale={initialLocale()} />);
    return;
  }
  // As a transition the first render yields to the browser every few milliseconds instead of holding
  // the main thread for the whole tree (one task of 700 ms on a slow phone): input and the browser's
  // own work go between its slices (issue 14, Total Blocking Time).
  const app = createRoot(root);
  startTransition(() => {
    app.render(
      <StrictMode>
        <Providers>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </Providers>
      </StrictMode>,
    );
  });
}

void start();
