import { ENDPOINTS, type Endpoint } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { escapeHtml } from '../lib/html.js';

/**
 * `GET /openapi.json`: every call of the endpoint table (packages/contract/src/endpoints.ts) as an
 * OpenAPI 3.1 document. Request bodies are the zod schemas the server parses
 * (as JSON Schema 2020-12, which OpenAPI 3.1 uses); every answer is the envelope `{ state, message,
 * content }`, with `content` described where the table gives the answer's schema.
 */

type JsonSchema = Record<string, unknown>;

/** The API's version in the document: raised when a call changes incompatibly. */
const API_VERSION = '1.0.0';

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  const { $schema: _dialect, ...rest } = json;
  return rest;
};

function envelope(content: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['state', 'message', 'content'],
    properties: {
      state: {
        type: 'integer',
        description:
          '0 on success; -5000 without a valid session; a refusal code otherwise (contract states.ts)',
      },
      message: { type: 'string', description: "In the caller's language (the lang header: en, zh or ko)" },
      content,
    },
  };
}

function operation(name: string, endpoint: Endpoint): JsonSchema {
  const parameters: JsonSchema[] = [
    {
      name: 'lang',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: ['en', 'zh', 'ko'] },
      description: 'The language of the answer’s message',
    },
  ];
  for (const match of endpoint.path.matchAll(/:(\w+)/g)) {
    parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  const operation: JsonSchema = {
    operationId: name,
    tags: [endpoint.module],
    'x-auth': endpoint.auth,
    parameters,
    responses: {
      '200':
        endpoint.auth === 'link'
          ? { description: 'The file the link stands for' }
          : {
              description: 'The envelope; `content` on success',
              content: {
                'application/json': {
                  schema: envelope(endpoint.response ? toJsonSchema(endpoint.response, 'output') : {}),
                },
              },
            },
    },
  };
  if (endpoint.auth === 'member' || endpoint.auth === 'operator') operation.security = [{ session: [] }];
  if (endpoint.request) {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: toJsonSchema(endpoint.request, 'input') } },
    };
  }
  return operation;
}

function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [name, endpoint] of Object.entries(ENDPOINTS) as Array<[string, Endpoint]>) {
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][endpoint.method.toLowerCase()] = operation(name, endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Elex Cashback API',
      version: API_VERSION,
      description:
        'Every call answers { state, message, content }. Calls marked x-auth member or operator need the session token in the `token` header.',
    },
    paths,
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'header', name: 'token' } },
    },
  };
}

/** One call on the docs page: who may make it, the body it takes and the answer's content. */
function callSection(name: string, endpoint: Endpoint): string {
  const schemaBlock = (
    title: string,
    schema: z.ZodType | null | undefined,
    io: 'input' | 'output',
    none: string,
  ) =>
    `<h4>${title}</h4>${
      schema
        ? `<pre>${escapeHtml(JSON.stringify(toJsonSchema(schema, io), null, 2))}</pre>`
        : `<p>${none}</p>`
    }`;
  return [
    `<section id="${escapeHtml(name)}"><h3><code>${endpoint.method} ${escapeHtml(endpoint.path)}</code></h3>`,
    `<p>${escapeHtml(name)} · ${AUTH_WORDS[endpoint.auth]}</p>`,
    schemaBlock('Request body', endpoint.request, 'input', 'No body is read.'),
    endpoint.auth === 'link'
      ? '<h4>Answer</h4><p>The file the link stands for.</p>'
      : schemaBlock(
          'Answer content',
          endpoint.response,
          'output',
          'Not yet described in the endpoint table.',
        ),
    '</section>',
  ].join('\n');
}

const AUTH_WORDS: Record<Endpoint['auth'], string> = {
  public: 'anyone',
  member: 'a member (the session token in the <code>token</code> header; -5000 without)',
  operator: 'an operator (a member with the role; 1003 for any other member)',
  link: 'whoever holds the one-time link',
};

/** `GET /api-docs`: the same table as a page people read, grouped by the module that serves each call. */
function docsPage(): string {
  const byModule = new Map<string, string[]>();
  for (const [name, endpoint] of Object.entries(ENDPOINTS) as Array<[string, Endpoint]>) {
    byModule.set(endpoint.module, [...(byModule.get(endpoint.module) ?? []), callSection(name, endpoint)]);
  }
  const modules = [...byModule.keys()].sort();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Elex Cashback API</title></head>
<body><main><h1>Elex Cashback API ${API_VERSION}</h1>
<p>Every call answers <code>{ state, message, content }</code>: state 0 on success, the message in the language of the
<code>lang</code> header (en, zh, ko). The same description as OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a>.</p>
<nav aria-label="Modules"><ul>${modules.map((module) => `<li><a href="#module-${module}">${module}</a></li>`).join('')}</ul></nav>
${modules.map((module) => `<h2 id="module-${module}">${module}</h2>\n${byModule.get(module)?.join('\n')}`).join('\n')}
</main></body></html>`;
}

/** Built on the first request and kept: turning every schema into JSON Schema is no work for the start. */
export async function registerOpenApi(app: FastifyInstance) {
  let document: string | undefined;
  app.get('/openapi.json', async (_request, reply) => {
    document ??= JSON.stringify(openApiDocument());
    return reply.type('application/json').send(document);
  });
  let page: string | undefined;
  app.get('/api-docs', async (_request, reply) => {
    page ??= docsPage();
    return reply.type('text/html; charset=utf-8').send(page);
  });
}
