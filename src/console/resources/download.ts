/**
 * Saving a file the API answered (a CSV export, a template, failed rows) as a download of the
 * browser: the answer's bytes under the name its Content-Disposition gives (`exportFileName`).
 */

/** The file name of an export: from Content-Disposition, else `<resource>.csv`. */
export function exportFileName(disposition: string | null, resource: string): string {
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition ?? '');
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition ?? '');
  return plain ? plain[1].trim() : `${resource}.csv`;
}

/**
 * Reads the whole body of `res` and lets the browser save it, named by its Content-Disposition or
 * else `<fallback>.csv`. Answers the name used. Errors: whatever reading the body throws.
 */
export async function saveResponse(res: Response, fallback: string): Promise<string> {
  const blob = await res.blob();
  const name = exportFileName(res.headers.get('Content-Disposition'), fallback);
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Some browsers read the object URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}
