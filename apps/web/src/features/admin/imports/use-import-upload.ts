import type { ImportKind, ImportResult } from '@elex/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { uploadImport } from '../api/upload-import';

export type UploadStage =
  | { kind: 'idle' }
  | { kind: 'uploading'; sent: number; total: number }
  | { kind: 'processing' }
  | { kind: 'done'; result: ImportResult; fileName: string };

/** Sends a CSV through its stages (uploading, processing, done), then reloads the runs and the dashboard. */
export function useImportUpload() {
  const client = useQueryClient();
  const [stage, setStage] = useState<UploadStage>({ kind: 'idle' });

  const upload = async (file: File, kind: ImportKind, platId: number) => {
    const csv = await file.text();
    setStage({ kind: 'uploading', sent: 0, total: file.size });
    try {
      const result = await uploadImport({ kind, platId, fileName: file.name, csv }, (sent, total) =>
        setStage(sent >= total ? { kind: 'processing' } : { kind: 'uploading', sent, total }),
      );
      setStage({ kind: 'done', result, fileName: file.name });
      await client.invalidateQueries({ queryKey: ['admin', 'importRuns'] });
      await client.invalidateQueries({ queryKey: ['admin', 'dashboard'] });
    } catch {
      // The API client showed the reason.
      setStage({ kind: 'idle' });
    }
  };

  return {
    stage,
    busy: stage.kind === 'uploading' || stage.kind === 'processing',
    upload,
    reset: () => setStage({ kind: 'idle' }),
  };
}
