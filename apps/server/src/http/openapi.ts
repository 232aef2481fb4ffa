import { ENDPOINTS, type Endpoint } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

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
              description: endpoint.response
                ? 'The envelope; `content` on success'
                : 'The envelope; `content` on success is not yet described in the endpoint table',
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

/** Built on the first request and kept: turning every schema into JSON Schema is no work for the start. */
export async function registerOpenApi(app: FastifyInstance) {
  let document: string | undefined;
  app.get('/openapi.json', async (_request, reply) => {
    document ??= JSON.stringify(openApiDocument());
    return reply.type('application/json').send(document);
  });
}
