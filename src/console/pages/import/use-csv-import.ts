/**
 * The steps of the upload page (000 2.2 import/upload; 001 7.16): choose the kind and a file (checked
 * in the browser first), the dry run, the import, its progress read every IMPORT_POLL_MS until it
 * ends, and cancelling: while a file is still being sent the request is aborted (nothing stored),
 * once the import runs the server rolls it back. Failures go to Refine's `onError` (a 403 signs
 * out, 001 8) and are kept as the page's error message (the server's text, shown as text).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnError } from '@refinedev/core';
import type { DryRunAnswer, ImportKind, ImportState } from '@/shared/csv-import';
import { isApiError } from '../../providers/api-error';
import { cancelImport, checkCsv, checkCsvFile, fetchImportState, IMPORT_POLL_MS, startImport, type FileProblem } from './import-api';

/**
 * Where the page is: choosing a file, sending it for the check, looking at the check, sending it
 * for the import, watching the import run, or looking at how it ended.
 */
export type ImportPhase = 'choose' | 'checking' | 'checked' | 'sending' | 'running' | 'ended';

/** Bytes of the file's request sent so far and in all. */
export interface SentBytes {
  loaded: number;
  total: number;
}

const isAbort = (e: unknown) => (e as Error | undefined)?.name === 'AbortError';

/** The page's state and its commands; `city` is the city the calls go to. */
export function useCsvImport(city: string) {
  const { t, i18n } = useTranslation();
  const { mutate: onError } = useOnError();
  const [kind, setKindState] = useState<ImportKind>('ads');
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<FileProblem | null>(null);
  const [phase, setPhase] = useState<ImportPhase>('choose');
  const [dryRun, setDryRun] = useState<DryRunAnswer | null>(null);
  const [sent, setSent] = useState<SentBytes | null>(null);
  const [state, setState] = useState<ImportState | null>(null);
  const [runningId, setRunningId] = useState<number | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const upload = useRef<AbortController | null>(null);

  // A page closed while its file is being sent stops sending it.
  useEffect(() => () => upload.current?.abort(), []);

  const fail = useCallback(
    (e: unknown) => {
      if (isAbort(e)) {
        setNotice(t('imports.progress.aborted'));
        return;
      }
      onError(e);
      setError(isApiError(e) || e instanceof Error ? e.message : t('errors.server_error'));
    },
    [onError, t],
  );

  /** Sends the file with `send`, reporting the bytes sent; the request can be aborted by `cancel`. */
  const sending = useCallback(
    async <T>(send: (f: File, options: { signal: AbortSignal; onProgress: (loaded: number, total: number) => void }) => Promise<T>): Promise<T | null> => {
      if (!file) return null;
      const controller = new AbortController();
      upload.current = controller;
      setSent({ loaded: 0, total: file.size });
      setError(null);
      setNotice(null);
      try {
        return await send(file, { signal: controller.signal, onProgress: (loaded, total) => setSent({ loaded, total }) });
      } catch (e) {
        fail(e);
        return null;
      } finally {
        upload.current = null;
        setSent(null);
      }
    },
    [file, fail],
  );

  const chooseFile = useCallback(
    (chosen: File) => {
      const problem = checkCsvFile(chosen, i18n.language);
      setFileProblem(problem);
      setFile(problem ? null : chosen);
      setDryRun(null);
      setError(null);
      setNotice(null);
      setPhase('choose');
    },
    [i18n.language],
  );

  const setKind = useCallback((next: ImportKind) => {
    setKindState(next);
    // A check was of the other kind's columns.
    setDryRun(null);
    setPhase('choose');
  }, []);

  const check = useCallback(async () => {
    setPhase('checking');
    setDryRun(null);
    const answer = await sending((f, options) => checkCsv(city, kind, f, options));
    setDryRun(answer);
    setPhase(answer ? 'checked' : 'choose');
  }, [city, kind, sending]);

  // A file imported before is sent with confirm_duplicate: the page asked before calling `start`.
  const start = useCallback(async () => {
    setPhase('sending');
    const again = (dryRun?.duplicate_of ?? null) !== null;
    const answer = await sending((f, options) => startImport(city, kind, f, again, options));
    if (!answer) {
      setPhase('checked');
      return;
    }
    setState(answer);
    setRunningId(answer.id);
    setPhase(answer.status === 'processing' ? 'running' : 'ended');
  }, [city, kind, dryRun, sending]);

  const cancel = useCallback(async () => {
    if (upload.current) {
      upload.current.abort();
      return;
    }
    if (phase !== 'running' || runningId === null) return;
    setCancelling(true);
    try {
      const answer = await cancelImport(city, runningId);
      setState(answer);
      if (answer.status !== 'processing') setPhase('ended');
    } catch (e) {
      fail(e);
    } finally {
      setCancelling(false);
    }
  }, [city, phase, runningId, fail]);

  const reset = useCallback(() => {
    setFile(null);
    setFileProblem(null);
    setDryRun(null);
    setState(null);
    setRunningId(null);
    setError(null);
    setNotice(null);
    setPhase('choose');
  }, []);

  // The running import's progress, read until it ends; a failed read is tried again at the next
  // tick unless the server refused it (e.g. the entry was deleted).
  useEffect(() => {
    if (phase !== 'running' || runningId === null) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = await fetchImportState(city, runningId, controller.signal);
        setState(next);
        if (next.status !== 'processing') {
          setPhase('ended');
          return;
        }
      } catch (e) {
        if (controller.signal.aborted) return;
        if (isApiError(e) && e.status >= 400 && e.status < 500 && e.status !== 429) {
          fail(e);
          return;
        }
      }
      timer = setTimeout(() => void tick(), IMPORT_POLL_MS);
    };
    timer = setTimeout(() => void tick(), IMPORT_POLL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [phase, runningId, city, fail]);

  return {
    kind,
    setKind,
    file,
    fileProblem,
    chooseFile,
    phase,
    dryRun,
    sent,
    state,
    cancelling,
    error,
    notice,
    check,
    start,
    cancel,
    reset,
  };
}

/** What `useCsvImport` answers. */
export type CsvImport = ReturnType<typeof useCsvImport>;
