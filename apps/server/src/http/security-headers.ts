import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The policy of every page. Scripts strictly same-origin; toasts and dialogs set inline styles;
 * nothing may frame the site.
 */
const DOCUMENT_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join(';');

/**
 * A page gets what helmet sent with our options (same names and values), as one constant: helmet
 * rebuilt them and re-serialised the policy on every request, which cost a third of the hottest
 * call's throughput (issue 14). HSTS only in production: a development server on http must stay
 * reachable.
 */
function documentHeaders(hsts: Record<string, string>): Record<string, string> {
  return {
    'content-security-policy': DOCUMENT_POLICY,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...hsts,
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

/**
 * An API answer, a hashed asset, a logo or the health check is never a page a browser renders with
 * our scripts: it gets OWASP's set for REST answers. A policy that allows nothing and no framing
 * (should one be opened on its own), no sniffing, no embedding by another site, HSTS. The page-only
 * fields (opener, referrer, agent cluster, DNS prefetch, and the legacy IE and Flash ones) do
 * nothing on such an answer, and each field costs the hottest call measurably (decisions.md,
 * "Security header fields by kind of answer").
 */
function resourceHeaders(hsts: Record<string, string>): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    ...hsts,
    'x-content-type-options': 'nosniff',
  };
}

const RESOURCE_PREFIXES = ['/elex/', '/assets/', '/media/', '/logos/'];

/** Anything not known to be a resource is treated as a page: the stricter default. */
function isResourcePath(url: string): boolean {
  return url === '/healthz' || RESOURCE_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/**
 * Sets the security headers and the request id on every answer, in one hook that runs first: errors,
 * not-found answers and pages carry them too. A route may still replace one (the media route sends
 * its own stricter policy).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { hsts: boolean }) {
  const { forDocument, forResource } = securityHeaderSets(options);
  // Named: hot-answers.ts copies this hook, and its test finds it by name on the routes it answers.
  app.addHook('onRequest', function securityHeaders(request: FastifyRequest, reply, done) {
    const headers = isResourcePath(request.url) ? forResource : forDocument;
    for (const [name, value] of headers) reply.header(name, value);
    reply.header('x-request-id', request.id);
    done();
  });
}

/** Both sets as name/value pairs in the order they are set: the hook's and the hot answers' (hot-answers.ts). */
export function securityHeaderSets(options: { hsts: boolean }): {
  forDocument: Array<[string, string]>;
  forResource: Array<[string, string]>;
} {
  const hsts: Record<string, string> = options.hsts
    ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
    : {};
  return {
    forDocument: Object.entries(documentHeaders(hsts)),
    forResource: Object.entries(resourceHeaders(hsts)),
  };
}
