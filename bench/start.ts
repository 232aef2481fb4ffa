/** `npm run bench:start -w @elex/bench`: the server's cold start alone (bench/cold-start.ts); needs `npm run build`. */
import { benchStartAlone } from './cold-start.js';

await benchStartAlone();
