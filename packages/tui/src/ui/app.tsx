// @jsxRuntime automatic
// @jsxImportSource react
import type { ServerResult } from '@usher/protocol/stdio';
import { Box, Text, useInput } from 'ink';
import TextInput from 'ink-text-input';
import { useSyncExternalStore } from 'react';
import type { Dialog, TuiController, TuiSnapshot } from '../controller.ts';
import { statusLine, stepLine } from '../format.ts';
import { isActive } from '../state.ts';
import { ConfirmDialog, PickDialog, PromptDialog } from './dialogs.tsx';
import { Prefix, Transcript, toneProps } from './transcript.tsx';
import { useLiveState } from './use-live-state.ts';

/**
 * The terminal UI: the transcript above, then the live area: the step in progress, the last
 * step, the status line, and the input line (or the dialog in front).
 */
export function App({ controller }: { controller: TuiController }) {
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const { view, dialog } = snapshot;
  useInput((input, key) => {
    if (key.ctrl && input === 'c') controller.interrupt();
    // With a dialog on screen, Esc belongs to the dialog (it dismisses it).
    else if (key.escape && !dialog) controller.cancelRun();
  });
  return (
    <>
      <Transcript entries={view.entries} />
      {!snapshot.quitting && (
        <Box flexDirection="column" marginTop={1}>
          <LiveRun snapshot={snapshot} />
          <StatusBar snapshot={snapshot} />
          {dialog ? (
            <DialogView key={dialog.key} dialog={dialog} controller={controller} />
          ) : (
            <InputLine controller={controller} running={isActive(view.run?.phase)} />
          )}
        </Box>
      )}
    </>
  );
}

/** The step in progress and the last complete one (spec run visibility). */
function LiveRun({ snapshot }: { snapshot: TuiSnapshot }) {
  const { run, held } = snapshot.view;
  if (!run) return null;
  return (
    <Box flexDirection="column">
      {held && held.runId === run.id && (
        <Box paddingLeft={2} marginBottom={1}>
          <Text>{held.text}</Text>
        </Box>
      )}
      {run.last && (
        <Text wrap="truncate-end">
          <Text dimColor>{'last  '}</Text>
          <Text color={run.last.ok ? 'green' : 'red'}>{stepLine(run.last)}</Text>
          {!run.last.ok && run.last.detail && <Text color="red">{` · ${run.last.detail}`}</Text>}
        </Text>
      )}
      {run.current && isActive(run.phase) && (
        <Text wrap="truncate-end" dimColor>
          {`now   ${stepLine(run.current)}${run.current.title ? ` — ${run.current.title}` : ''}`}
        </Text>
      )}
    </Box>
  );
}

function StatusBar({ snapshot }: { snapshot: TuiSnapshot }) {
  const { connection, sessionId, hint } = snapshot;
  const run = snapshot.view.run;
  const status = statusLine(run);
  const right = [
    sessionId ? `session ${sessionId}` : 'new session',
    connection.state === 'connecting' && 'starting the runtime…',
    connection.state === 'closed' && 'runtime gone',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Box flexDirection="column">
      <Box
        justifyContent="space-between"
        borderStyle="single"
        borderLeft={false}
        borderRight={false}
        borderBottom={false}
        borderDimColor
      >
        <Text wrap="truncate-end">
          <Text bold {...toneProps(status.tone)}>
            {status.badge}
          </Text>
          {status.fields && <Text>{` · ${status.fields}`}</Text>}
          {run?.phase === 'error' && run.message && <Text color="red">{` · ${run.message}`}</Text>}
        </Text>
        {/* The session takes what the status line leaves: a narrow terminal cuts it first. */}
        <Box flexGrow={1} flexBasis={0} justifyContent="flex-end" paddingLeft={1}>
          <Text dimColor wrap="truncate-start">
            {right}
          </Text>
        </Box>
      </Box>
      {hint && <Text color="yellow">{hint}</Text>}
    </Box>
  );
}

function InputLine({ controller, running }: { controller: TuiController; running: boolean }) {
  const [value, setValue, live] = useLiveState('');
  return (
    <Box flexDirection="column">
      <Box>
        <Prefix text="› " color="cyan" bold />
        <TextInput
          value={value}
          onChange={(next) => setValue(submitLines(next, (line) => controller.submit(line)))}
          onSubmit={() => {
            const line = live.current;
            setValue('');
            controller.submit(line);
          }}
          placeholder={running ? 'Esc cancels the run · /help' : 'Tell the agent what to book, or /help'}
        />
      </Box>
    </Box>
  );
}

function DialogView({ dialog, controller }: { dialog: Dialog; controller: TuiController }) {
  const { request, key } = dialog;
  switch (request.method) {
    case 'ui.confirm.request':
      return (
        <ConfirmDialog
          params={request.params}
          onAnswer={(r: ServerResult<'ui.confirm.request'>) => controller.answer(key, r)}
        />
      );
    case 'ui.prompt.request':
      return <PromptDialog params={request.params} onAnswer={(r) => controller.answer(key, r)} />;
    case 'ui.pick.request':
      return <PickDialog params={request.params} onAnswer={(r) => controller.answer(key, r)} />;
  }
}

/**
 * Text that arrives with line breaks in it (a paste, or keys sent faster than a render) is
 * submitted line by line; what follows the last break stays in the input.
 */
export function submitLines(value: string, submit: (line: string) => void): string {
  const lines = value.split(/\r\n|\r|\n/);
  const rest = lines.pop() ?? '';
  for (const line of lines) submit(line);
  return rest;
}
