// @jsxRuntime automatic
// @jsxImportSource react
import type { ServerParams, ServerResult } from '@usher/protocol/stdio';
import { Box, Text, useInput } from 'ink';
import TextInput from 'ink-text-input';
import type { ReactNode } from 'react';
import { Prefix } from './transcript.tsx';
import { useLiveState } from './use-live-state.ts';

/**
 * The dialogs of spec §7. Each answers exactly once through `onAnswer`; Esc dismisses with the
 * spec's cancel value (confirm → not ok, prompt → null, pick → nothing).
 */

export function ConfirmDialog({
  params,
  onAnswer,
}: {
  params: ServerParams<'ui.confirm.request'>;
  onAnswer(result: ServerResult<'ui.confirm.request'>): void;
}) {
  const danger = params.danger_level === 'danger';
  // A dangerous action starts on the safe choice.
  const [focus, setFocus, liveFocus] = useLiveState<'confirm' | 'cancel'>(danger ? 'cancel' : 'confirm');
  useInput((input, key) => {
    if (key.ctrl) return;
    if (input === 'y' || input === 'Y') onAnswer({ ok: true });
    else if (input === 'n' || input === 'N' || key.escape) onAnswer({ ok: false });
    else if (key.return) onAnswer({ ok: liveFocus.current === 'confirm' });
    else if (key.leftArrow || key.rightArrow || key.tab) setFocus((f) => (f === 'confirm' ? 'cancel' : 'confirm'));
  });
  return (
    <Frame title={params.title} tone={danger ? 'red' : 'cyan'}>
      <Text>{params.message}</Text>
      <Box marginTop={1} gap={2}>
        <Choice label={params.confirm_label ?? 'OK'} hotkey="y" focused={focus === 'confirm'} danger={danger} />
        <Choice label={params.cancel_label ?? 'Cancel'} hotkey="n" focused={focus === 'cancel'} />
      </Box>
      <Hint text="y yes · n no · ←/→ move · Enter choose · Esc no" />
    </Frame>
  );
}

export function PromptDialog({
  params,
  onAnswer,
}: {
  params: ServerParams<'ui.prompt.request'>;
  onAnswer(result: ServerResult<'ui.prompt.request'>): void;
}) {
  const [value, setValue, live] = useLiveState(params.default_value ?? '');
  useInput((_input, key) => {
    if (key.escape) onAnswer({ value: null });
  });
  return (
    <Frame title={params.title} tone="cyan">
      <Text>{params.message}</Text>
      <Box marginTop={1}>
        <Prefix text="› " color="cyan" />
        <TextInput
          value={value}
          onChange={(next) => {
            // A line break in what arrived ends the answer, as Enter would.
            const line = /^([^\r\n]*)[\r\n]/.exec(next);
            if (line) onAnswer({ value: line[1] ?? '' });
            else setValue(next);
          }}
          onSubmit={() => onAnswer({ value: live.current })}
          {...(params.secret && { mask: '*' })}
        />
      </Box>
      <Hint text="Enter send · Esc skip" />
    </Frame>
  );
}

export function PickDialog({
  params,
  onAnswer,
}: {
  params: ServerParams<'ui.pick.request'>;
  onAnswer(result: ServerResult<'ui.pick.request'>): void;
}) {
  const [cursor, setCursor, liveCursor] = useLiveState(0);
  const [ticked, setTicked, liveTicked] = useLiveState<ReadonlySet<string>>(new Set());
  const items = params.items;
  useInput((input, key) => {
    if (key.escape) onAnswer({ ids: [] });
    else if (key.upArrow) setCursor((c) => (c - 1 + items.length) % Math.max(items.length, 1));
    else if (key.downArrow) setCursor((c) => (c + 1) % Math.max(items.length, 1));
    else if (input === ' ' && params.multi) {
      const id = items[liveCursor.current]?.id;
      if (id === undefined) return;
      setTicked((t) => {
        const next = new Set(t);
        if (!next.delete(id)) next.add(id);
        return next;
      });
    } else if (key.return) {
      const focused = items[liveCursor.current]?.id;
      if (params.multi) onAnswer({ ids: items.filter((i) => liveTicked.current.has(i.id)).map((i) => i.id) });
      else onAnswer({ ids: focused === undefined ? [] : [focused] });
    }
  });
  return (
    <Frame title={params.title} tone="cyan">
      {items.length === 0 && <Text dimColor>nothing to choose from</Text>}
      {items.map((item, i) => (
        <Box key={item.id}>
          <Prefix text={i === cursor ? '❯ ' : '  '} color="cyan" />
          {params.multi && <Prefix text={ticked.has(item.id) ? '[x] ' : '[ ] '} />}
          {/* One paragraph: a long label (a session's instruction) wraps instead of squeezing the detail. */}
          <Text>
            <Text bold={i === cursor}>{item.label}</Text>
            {item.detail && <Text dimColor>{`  ${item.detail}`}</Text>}
          </Text>
        </Box>
      ))}
      <Hint
        text={params.multi ? '↑/↓ move · Space tick · Enter done · Esc none' : '↑/↓ move · Enter choose · Esc none'}
      />
    </Frame>
  );
}

function Frame({ title, tone, children }: { title: string; tone: string; children: ReactNode }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={tone} paddingX={1}>
      <Text bold color={tone}>
        {title}
      </Text>
      {children}
    </Box>
  );
}

function Choice({
  label,
  hotkey,
  focused,
  danger,
}: {
  label: string;
  hotkey: string;
  focused: boolean;
  danger?: boolean;
}) {
  const text = ` ${label} (${hotkey}) `;
  return focused ? (
    <Text inverse bold color={danger ? 'red' : undefined}>
      {text}
    </Text>
  ) : (
    <Text>{text}</Text>
  );
}

function Hint({ text }: { text: string }) {
  return (
    <Box marginTop={1}>
      <Text dimColor>{text}</Text>
    </Box>
  );
}
