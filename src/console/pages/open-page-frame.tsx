/**
 * The frame of the open pages (000 2.1: no token, no city, no layout): a centred card with a title.
 * Plain elements, like the login page, so these pages stay light.
 */
import type { CSSProperties, ReactNode } from 'react';

const styles = {
  page: { minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f0f2f5', padding: 16 },
  card: { width: '100%', maxWidth: 640, background: '#fff', borderRadius: 8, padding: '32px 24px', boxShadow: '0 1px 2px rgba(0,0,0,0.06), 0 1px 6px rgba(0,0,0,0.08)' },
  title: { fontSize: 22, fontWeight: 600, margin: '0 0 16px', color: 'rgba(0,0,0,0.88)' },
} satisfies Record<string, CSSProperties>;

export function OpenPageFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main style={styles.page}>
      <section style={styles.card} aria-labelledby="open-page-title">
        <h1 id="open-page-title" style={styles.title}>
          {title}
        </h1>
        {children}
      </section>
    </main>
  );
}
