import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../lib/html.js';
import { devMailbox, type StoredMail } from './transport.js';

function renderEntry(mail: StoredMail): string {
  return `<article>
<h2>${escapeHtml(mail.subject)}</h2>
<p class="meta">#${mail.id} · ${escapeHtml(mail.at)} · to ${escapeHtml(mail.to)} · from ${escapeHtml(mail.from)} · ${escapeHtml(mail.template)}</p>
<details open><summary>Plain text</summary><pre>${escapeHtml(mail.text)}</pre></details>
<details><summary>HTML</summary><iframe sandbox title="HTML part of mail ${mail.id}" srcdoc="${escapeHtml(mail.html)}"></iframe></details>
</article>`;
}

/**
 * The development mailbox (architecture: without SMTP_URL mail goes to the log and this page). Never
 * registered in production: it shows codes.
 */
export async function devMailboxRoutes(app: FastifyInstance) {
  app.get('/dev/mailbox.json', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { mails: devMailbox(app.deps).list() };
  });

  app.get('/dev/mailbox', async (_request, reply) => {
    const mails = devMailbox(app.deps).list();
    const body = mails.length === 0 ? '<p>No mail yet.</p>' : mails.map(renderEntry).join('\n');
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Development mailbox</title>
<style>
body{font:14px/1.5 system-ui,sans-serif;margin:24px auto;max-width:860px;padding:0 16px;color:#1d2129}
article{border:1px solid #dde1e6;border-radius:8px;padding:12px 16px;margin:0 0 16px}
h2{font-size:16px;margin:0 0 4px}.meta{color:#667085;margin:0 0 8px}
pre{white-space:pre-wrap;background:#f6f8fa;padding:12px;border-radius:6px}
iframe{width:100%;height:420px;border:1px solid #dde1e6;border-radius:6px}
</style></head>
<body><h1>Development mailbox</h1><p>The last ${mails.length} mails, newest first. This page does not exist in production.</p>
${body}
</body>
</html>`);
  });
}
