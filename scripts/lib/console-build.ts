/**
 * Whether the console's build (`<consoleDir>/index.html`, made by `vite build`) is older than what
 * it is built from: the one rule of `npm start` (scripts/start.ts, which then builds in the
 * background) and of the bench (scripts/lib/console-server.ts, which builds before measuring).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What the console build depends on, relative to the project folder. */
export const BUILD_SOURCES = ['src/console', 'src/shared', 'locales', 'schemas', 'menus', 'vite.config.ts', 'scripts/lib/console-chunks.ts', 'scripts/lib/catalogue-parts.ts', 'index.html'];

/** Newest modification time (ms) of a file or of any file under a folder; 0 when missing. */
async function newest(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let max = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    max = Math.max(max, await newest(join(path, entry.name)));
  }
  return max;
}

/**
 * Why the build in `consoleDir` needs making again ('no build yet', 'src/console changed', …), or
 * null when it is newer than every file of BUILD_SOURCES under `root`.
 */
export async function staleBuildReason(root: string, consoleDir: string): Promise<string | null> {
  const built = await newest(join(consoleDir, 'index.html'));
  if (built === 0) return 'no build yet';
  for (const source of BUILD_SOURCES) {
    if ((await newest(join(root, source))) > built) return `${source} changed`;
  }
  return null;
}
