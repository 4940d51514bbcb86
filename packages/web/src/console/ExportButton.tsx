import { useState } from 'react';
import type { ConsoleApi } from './console-api.ts';

/**
 * "Export data": the study's analysis export (README "Data dictionary") saved as a zip. The
 * server makes it afresh, which takes seconds for a large study, so the button says so meanwhile,
 * and a refusal (another export running, a failure) is shown, not lost.
 */
export function ExportButton({ api, studyId }: { api: ConsoleApi; studyId: string }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const download = async () => {
    setState({ busy: true, error: null });
    try {
      const { blob, filename } = await api.exportZip(studyId);
      // Saved through a link to the fetched bytes: the credential went in a header, never in an address.
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ busy: false, error: null });
    } catch (err) {
      setState({ busy: false, error: err instanceof Error ? err.message : String(err) });
    }
  };
  return (
    <div className="console-export">
      {state.error && (
        <p className="console-export__error" role="alert" data-testid="export-error">
          Export failed: {state.error}
        </p>
      )}
      <button
        type="button"
        className="console-export__button"
        data-testid="export-data"
        disabled={state.busy}
        aria-busy={state.busy}
        onClick={download}
      >
        {state.busy ? 'Preparing export…' : 'Export data'}
      </button>
    </div>
  );
}
