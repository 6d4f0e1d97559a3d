/** The console's catalogue parts (scripts/lib/catalogue-parts.ts): `<language>:<scope>` → its namespace files' trees. */
declare module 'virtual:catalogue-parts' {
  const parts: Record<string, () => Promise<{ default: Record<string, unknown>[] }>>;
  export default parts;
}
