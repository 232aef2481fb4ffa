import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type Build = (externalSchemas: unknown, options: unknown) => unknown;

// Fastify's own dependencies, resolved from Fastify's folder as Fastify itself does.
const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

/** The factory a compiler package exports, required on the first call. */
function loadedOnFirstUse(packageName: string): Build {
  let build: Build | undefined;
  return (externalSchemas, options) => {
    build ??= (requireFromFastify(packageName) as () => Build)();
    return build(externalSchemas, options);
  };
}

/**
 * Fastify's default schema compilers (ajv, fast-json-stringify), loaded when a route first needs one
 * instead of when Fastify is created: our calls validate with zod through their own compiler and
 * declare no response schema, so neither is used, and loading ajv took a tenth of a start (issue 14).
 * A route with a plain JSON schema still gets them, as before.
 */
export const lazySchemaCompilers = {
  buildValidator: loadedOnFirstUse('@fastify/ajv-compiler'),
  buildSerializer: loadedOnFirstUse('@fastify/fast-json-stringify-compiler'),
  // The packages' factory types are overloaded per ajv mode; these pass every argument through.
} as unknown as CompilersFactory;
