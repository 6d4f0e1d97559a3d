/**
 * `npm run build`: the console's production build into dist/console (scripts/lib/console-build.ts:
 * `vite build --mode production` with NODE_ENV=production, whatever the shell's NODE_ENV says), with
 * vite's output. `npm start` makes the same build by itself when it is missing or stale; `npm run dev`
 * is the place for development builds.
 */
import { resolve } from 'node:path';
import { spawnConsoleBuild } from './lib/console-build';

const child = spawnConsoleBuild(resolve(import.meta.dirname, '..'));
child.stdout?.pipe(process.stdout);
child.stderr?.pipe(process.stderr);
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
