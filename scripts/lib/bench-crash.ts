/**
 * The crash figures of `npm run bench` (`-- crash`; docs/architecture.md 'Storage'): a server as
 * `npm start` runs it (./server-process.ts) takes a stream of writes (4 writers creating news rows of
 * kobe) and is killed with SIGKILL at a random moment, 20 times in a row, each time restarted by
 * the bench as a supervisor would, with no hand: on a new PGlite data directory (its lock taken over,
 * its WAL replayed) and on PostgreSQL (DATABASE_URL in a schema of its own, else a throwaway local
 * one). After each restart every write that was answered 2xx must be there. Prints the writes
 * acknowledged, the ones lost (budget 0) and the restart times (spawn to the first answer).
 */
import { limitRow, ms, type BudgetRow } from './budget';
import { onBothDatabases } from './local-postgres';
import { bearerOf, startServer } from './server-process';

const ROUNDS = 20;
const WRITERS = 4;

interface CrashFigures {
  label: string;
  acknowledged: number;
  lost: number;
  restartMs: number[];
}

/** Writes news rows until the server dies; answers the ids answered 201. */
async function writeUntilDeath(url: string, auth: Record<string, string>, round: number): Promise<number[]> {
  const ids: number[] = [];
  let n = 0;
  const writer = async () => {
    for (;;) {
      const title = `crash ${round}-${n++}`;
      try {
        const r = await fetch(`${url}/kobe/api/city/admin-news/`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title, description: '書き込み中の停止' }) });
        if (r.status === 201) ids.push(Number(((await r.json()) as { id: number }).id));
      } catch {
        return; // the connection died with the server
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return ids;
}

async function crashRounds(root: string, label: string, env: Record<string, string>): Promise<CrashFigures> {
  const figures: CrashFigures = { label, acknowledged: 0, lost: 0, restartMs: [] };
  let { url, child } = await startServer(root, env);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const auth = await bearerOf(url, 'operator');
      const writing = writeUntilDeath(url, auth, round);
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 1200));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      const ids = await writing;
      const started = performance.now();
      ({ url, child } = await startServer(root, env));
      figures.restartMs.push(performance.now() - started);
      const again = await bearerOf(url, 'operator');
      let lost = 0;
      for (const id of ids) if ((await fetch(`${url}/kobe/api/city/admin-news/${id}/`, { headers: again })).status !== 200) lost++;
      figures.acknowledged += ids.length;
      figures.lost += lost;
      console.log(`${label} round ${round}: ${ids.length} writes acknowledged before the kill, ${lost} lost, restart ${Math.round(figures.restartMs.at(-1)!)} ms`);
    }
  } finally {
    child.kill('SIGKILL');
  }
  return figures;
}

function rowsOf(f: CrashFigures): BudgetRow[] {
  const sorted = [...f.restartMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`${f.label}: ${f.acknowledged} writes acknowledged over ${ROUNDS} kills, ${f.lost} lost; restart median ${Math.round(median)} ms, max ${Math.round(sorted.at(-1)!)} ms`);
  return [
    limitRow(`crash: writes lost of ${f.acknowledged} acknowledged, ${ROUNDS} × kill -9, ${f.label}`, f.lost, 'max', 0, (n) => String(n)),
    { figure: `crash: restart to the first answer, median (max), ${f.label}`, value: `${ms(median)} (${ms(sorted.at(-1)!)})`, budget: 'printed', status: 'ok' },
  ];
}

/** Runs the crash bench in `root` (see the top of this file); prints its details and resolves to its budget rows. */
export async function runCrashBench(root: string): Promise<BudgetRow[]> {
  return onBothDatabases('bench_crash', async (label, env) => rowsOf(await crashRounds(root, label, env)));
}
