/**
 * Imported first by main.ts, before any schema is built. zod's JIT probes `new Function` when an object schema is
 * constructed; our CSP (rightly) blocks eval, and the browser reports each blocked probe as a CSP violation even
 * though zod catches it. Jitless parsing avoids the probe entirely (and is plenty fast for our message sizes).
 */
import * as z from 'zod/mini';

z.config({ jitless: true });
