/**
 * A debounced value: `value` once it has stayed the same for `ms` milliseconds (the first render
 * answers `value` itself). Used where a change asks the server (a recipient count, a picker's search).
 */
import { useEffect, useState } from 'react';

export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
