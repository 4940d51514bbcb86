// @jsxRuntime automatic
// @jsxImportSource react
import { Box, Static, Text } from 'ink';
import { formatDuration } from '../format.ts';
import type { Entry, StepView, Tone } from '../state.ts';

/** Ink colour props for each tone; everything else stays in the terminal's own colours. */
export function toneProps(tone: Tone | undefined): { color?: string; dimColor?: boolean } {
  switch (tone) {
    case 'ok':
      return { color: 'green' };
    case 'error':
      return { color: 'red' };
    case 'warn':
      return { color: 'yellow' };
    case 'accent':
      return { color: 'cyan' };
    case 'dim':
      return { dimColor: true };
    default:
      return {};
  }
}

/**
 * The session's transcript. Entries are written once, above the live area (Ink's `<Static>`), so
 * streamed events add lines without redrawing what is already on screen.
 */
export function Transcript({ entries }: { entries: Entry[] }) {
  return (
    // `<Static>` is laid out apart (absolute): without the terminal's width, a wrapped line can
    // come out a column wider than the terminal, which then breaks it again.
    <Static items={entries} style={{ width: '100%' }}>
      {(entry) => <EntryView key={entry.id} entry={entry} />}
    </Static>
  );
}

export function EntryView({ entry }: { entry: Entry }) {
  switch (entry.kind) {
    case 'user':
      return (
        <Box marginTop={1}>
          <Prefix text="❯ " color="cyan" bold />
          <Text bold>{entry.text}</Text>
        </Box>
      );
    case 'text':
      return (
        <Box paddingLeft={2}>
          <Text>{entry.text}</Text>
        </Box>
      );
    case 'reasoning':
      return (
        <Box paddingLeft={2}>
          <Text dimColor italic>
            {entry.text}
          </Text>
        </Box>
      );
    case 'step':
      return <StepEntry step={entry.step} />;
    case 'final':
      return (
        <Box marginTop={1}>
          <Prefix text="◆ " color="green" bold />
          <Text bold>{entry.text}</Text>
        </Box>
      );
    case 'end':
      return (
        <Box paddingLeft={2}>
          {entry.status === 'completed' && <Text dimColor>{`done · ${entry.steps} steps`}</Text>}
          {entry.status === 'cancelled' && <Text color="yellow">{`cancelled after ${entry.steps} steps`}</Text>}
          {entry.status === 'error' && <Text color="red">{`✗ run failed: ${entry.message ?? 'no reason given'}`}</Text>}
        </Box>
      );
    case 'error':
      return <Text color="red">{`✗ ${entry.text}`}</Text>;
    case 'notice':
      return <Text dimColor>{`· ${entry.text}`}</Text>;
    case 'heading':
      return (
        <Box marginTop={1}>
          <Text bold>{entry.text}</Text>
        </Box>
      );
    case 'row':
      return (
        <Box paddingLeft={2}>
          {entry.cells.map((cell, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional columns
            <Box key={i} minWidth={i === 0 ? 22 : undefined} marginRight={2} flexShrink={i === 0 ? 0 : 1}>
              <Text {...toneProps(cell.tone)}>{cell.text}</Text>
            </Box>
          ))}
        </Box>
      );
  }
}

/**
 * The mark before a line that may wrap: it keeps its width, so the text wraps beside it rather
 * than squeezing it (a flex item shrinks by default).
 */
export function Prefix({ text, color, bold = false }: { text: string; color?: string; bold?: boolean }) {
  return (
    <Box flexShrink={0}>
      <Text color={color} bold={bold}>
        {text}
      </Text>
    </Box>
  );
}

function StepEntry({ step }: { step: StepView }) {
  return (
    <Box paddingLeft={2}>
      <Text wrap="truncate-end">
        <Text color={step.ok ? 'green' : 'red'}>{step.ok ? '✓ ' : '✗ '}</Text>
        <Text dimColor={step.ok} color={step.ok ? undefined : 'red'}>
          {`${step.number} ${step.label || step.tool || 'step'}`}
          {step.durationMs !== undefined && ` · ${formatDuration(step.durationMs)}`}
          {!step.ok && step.detail && ` · ${step.detail}`}
          {step.ok && step.title && ` — ${step.title}`}
        </Text>
      </Text>
    </Box>
  );
}
