/**
 * Whether the task of a component's first commit is over: false in that commit, true from a task
 * of its own right after it (a `setTimeout` of 0), and true from then on.
 * The layout renders its pages under it, so that a page opened by its address is rendered and
 * committed in a task after the shell's, not in the same one: two shorter tasks of the main thread
 * instead of one long one (docs/performance.md 'What ran on the main thread, and what removed it').
 */
import { useEffect, useState } from 'react';

export function useAfterFirstTask(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    const id = setTimeout(() => setAfter(true), 0);
    return () => clearTimeout(id);
  }, []);
  return after;
}
