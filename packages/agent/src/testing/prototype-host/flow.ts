import { randomUUID } from 'node:crypto';
import {
  durationMinutes,
  endOf,
  type PlacedBooking,
  type PrototypeCatalog,
  type SeatRecord,
  twelveHour,
} from './catalog.ts';
import {
  cleared,
  completedPage,
  type FilterState,
  type Item,
  isCompleted,
  newPage,
  refreshed,
  STAGES,
  type Stage,
  selectMany,
  selectOne,
  type ToolDefinition,
  toggle,
  toolsFor,
  type UISpec,
  type Workflow,
  withFilter,
  withModification,
} from './page.ts';

/*
 * The prototype host's booking page: movie, theater, date, time, seat, confirm, where `next` on
 * the confirm stage books and the page stays on that stage, titled "Booking Complete". As the
 * prototype's page does, it keeps the whole chat (a system entry holding the full uiSpec for every
 * stage load and every select or modification, agent entries tagged with the `next`/`prev` that
 * followed them), remembers each stage's last page so `prev` (and `next` again) restores the
 * choice made there, loads a stage a moment after `next`/`prev` (its backend fetch), and tells
 * its owner after every change it would render, so the owner can send `state.updated`.
 */

interface Entry {
  id: string;
  type: 'system' | 'agent';
  timestamp: number;
  stage: Stage;
}
export interface SystemEntry extends Entry {
  type: 'system';
  spec: UISpec;
  annotation?: { kind: 'tool-modification'; toolName: string; reason: string; source: 'agent' };
}
export interface AgentEntry extends Entry {
  type: 'agent';
  text: string;
  actionTag?: { toolName: 'next' | 'prev'; reason: string; source: 'agent' };
}
export type ChatEntry = SystemEntry | AgentEntry;

export interface BookingPageOptions {
  /** The browser's clock, for the chat's ids and timestamps (not the study day). */
  now: () => Date;
  /** The GUI adaptation tools (filter, sort, highlight, augment, clearModification); on by default, as in the prototype. */
  guiAdaptation?: boolean;
  /** How long a stage takes to load after `next`/`prev` (the prototype's backend fetch); 5 ms by default. */
  loadDelayMs?: number;
  /** Movies and theaters come in an order stable per session but shuffled; the seed of that order. */
  seed?: string;
  /** Called after each change the page would render. */
  onRender?: () => void;
}

/** A tool call the page could not apply: its message goes back as `TOOL_EXECUTION_FAILED`. */
export class ToolFailure extends Error {}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const TYPE_LABEL: Record<string, string> = { premium: 'Premium', couple: 'Couple', wheelchair: 'Wheelchair' };

/** FNV-1a, for an order that is shuffled yet the same every time for the same seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** What each stage carries of the choices made before it. */
function project(stage: Stage, w: Workflow): Workflow {
  const upTo = STAGES.indexOf(stage);
  const out: Workflow = {};
  if (upTo >= 1 && w.movie) out.movie = w.movie;
  if (upTo >= 2 && w.theater) out.theater = w.theater;
  if (upTo >= 3 && w.date) out.date = w.date;
  if (upTo >= 4 && w.showing) out.showing = w.showing;
  if (upTo >= 5 && w.seats) out.seats = w.seats;
  return out;
}

/** The choices a stage's page depends on: a remembered page is restored only when they are the same. */
function contextKey(stage: Stage, w: Workflow): string {
  const parts = [
    `movie:${w.movie?.id ?? ''}`,
    `theater:${w.theater?.id ?? ''}`,
    `date:${String(w.date?.date ?? w.date?.id ?? '')}`,
    `showing:${w.showing?.id ?? ''}`,
    `seats:${(w.seats ?? []).map((s) => s.id).join(',')}`,
  ];
  return stage === 'movie' ? 'movie' : parts.slice(0, STAGES.indexOf(stage)).join('|');
}

export class BookingPage {
  active: UISpec | null = null;
  readonly chat: ChatEntry[] = [];
  readonly bookings: PlacedBooking[] = [];
  private readonly remembered = new Map<Stage, UISpec>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private ids = 0;

  constructor(
    private readonly catalog: PrototypeCatalog,
    private readonly options: BookingPageOptions,
  ) {
    this.load('movie', {}, false);
  }

  get stage(): Stage {
    return this.active?.stage ?? 'movie';
  }

  tools(): ToolDefinition[] {
    return toolsFor(this.active, this.options.guiAdaptation !== false);
  }

  /** Stops stage loads still to come. */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  // --- the chat ---

  private entryId(prefix: string): string {
    this.ids += 1;
    const tail = hash(`${prefix}:${this.ids}`).toString(36).padStart(7, '0').slice(-7);
    return `${prefix}-${this.options.now().getTime()}-${tail}`;
  }

  private addSystem(stage: Stage, spec: UISpec, annotation?: SystemEntry['annotation']): void {
    const entry: SystemEntry = {
      id: this.entryId('sys'),
      type: 'system',
      timestamp: this.options.now().getTime(),
      stage,
      spec: structuredClone(spec),
      ...(annotation && { annotation }),
    };
    this.chat.push(entry);
    this.remembered.set(stage, structuredClone(spec));
    this.active = spec;
  }

  /** An agent's message (`agent.message` or the `postMessage` tool), shown in the chat. */
  agentSays(text: string): void {
    this.chat.push({
      id: this.entryId('agt'),
      type: 'agent',
      timestamp: this.options.now().getTime(),
      stage: this.stage,
      text,
    });
    this.render();
  }

  /** The latest agent message of the stage is tagged with the `next` or `prev` that followed it. */
  private tagLastAgentEntry(stage: Stage, toolName: 'next' | 'prev', reason: string): void {
    const last = this.chat.findLast((e): e is AgentEntry => e.type === 'agent' && e.stage === stage);
    if (last) last.actionTag = { toolName, reason, source: 'agent' };
  }

  private render(): void {
    this.options.onRender?.();
  }

  private later(task: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task();
    }, this.options.loadDelayMs ?? 5);
    this.timers.add(timer);
  }

  // --- stages ---

  private shuffled<T extends { id: string }>(list: T[], key: string): T[] {
    const seed = this.options.seed ?? 'default';
    return [...list].sort((a, b) => hash(`${seed}:${key}:${a.id}`) - hash(`${seed}:${key}:${b.id}`));
  }

  private seatItem(seat: SeatRecord): Item {
    const label = `${seat.row}${seat.number} - ${TYPE_LABEL[seat.type] ?? 'Standard'} - ${usd.format(seat.price)}`;
    const { id, showingId, row, number, type, price, status } = seat;
    return { id, showingId, row, number, label, type, price, status };
  }

  private pageOf(stage: Stage, w: Workflow): UISpec {
    const c = this.catalog;
    const movieId = w.movie?.id ?? '';
    const theaterId = w.theater?.id ?? '';
    const date = String(w.date?.date ?? w.date?.id ?? '');
    switch (stage) {
      case 'movie':
        return newPage(
          'movie',
          this.shuffled(c.movies, 'movies').map(({ id, title, genre, rating, duration, ageRating, synopsis }) => ({
            id,
            title,
            genre: [...genre],
            rating,
            duration,
            ageRating,
            synopsis,
          })),
        );
      case 'theater': {
        const showing = new Set(c.showings.filter((s) => s.movieId === movieId).map((s) => s.theaterId));
        const theaters = c.theaters.filter((t) => showing.has(t.id));
        return newPage(
          'theater',
          this.shuffled(theaters, `theaters:movie:${movieId}`).map((t) => ({ ...t, amenities: [...t.amenities] })),
          { movieId },
        );
      }
      case 'date': {
        const open = new Set(
          c.showings.filter((s) => s.movieId === movieId && s.theaterId === theaterId).map((s) => s.date),
        );
        const start = new Date(`${c.studyDate}T00:00:00Z`);
        const items = Array.from({ length: c.dateWindow }, (_, i) => {
          const day = new Date(start.getTime() + i * 86_400_000);
          const id = day.toISOString().slice(0, 10);
          const dayOfWeek = DAY_NAMES[day.getUTCDay()] as string;
          return {
            id,
            date: id,
            dayOfWeek,
            displayText: `${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()} (${dayOfWeek})`,
            available: open.has(id),
            isToday: i === 0,
          };
        });
        return newPage('date', items, { movieId, theaterId });
      }
      case 'time': {
        const minutes = durationMinutes(c.movies.find((m) => m.id === movieId)?.duration ?? '');
        const items = c.showings
          .filter((s) => s.movieId === movieId && s.theaterId === theaterId && s.date === date)
          .sort((a, b) => a.time.localeCompare(b.time))
          .map((s) => ({
            id: s.id,
            screenNumber: s.screenNumber,
            time: s.time,
            displayTime: twelveHour(s.time),
            ...endOf(s.time, minutes),
            format: s.format,
          }));
        return newPage('time', items, { movieId, theaterId, date });
      }
      case 'seat':
        return newPage(
          'seat',
          c.seats.filter((s) => s.showingId === w.showing?.id).map((s) => this.seatItem(s)),
        );
      case 'confirm': {
        const chosen = new Set((w.seats ?? []).map((s) => s.id));
        const totalPrice = c.seats.filter((s) => chosen.has(s.id)).reduce((sum, s) => sum + s.price, 0);
        return newPage('confirm', [], {
          movie: w.movie,
          theater: w.theater,
          date,
          time: w.showing?.displayTime ?? twelveHour(String(w.showing?.time ?? '')),
          seats: (w.seats ?? []).map((s) => (typeof s.label === 'string' && s.label ? s.label : s.id)),
          totalPrice,
        });
      }
    }
  }

  /** Loads a stage's page for the choices so far, restoring the page last shown there when they are the same. */
  private load(stage: Stage, w: Workflow, restore = true): void {
    let page: UISpec = this.pageOf(stage, w);
    page = { ...page, state: { ...page.state, workflow: w } };
    const before = restore ? this.remembered.get(stage) : undefined;
    if (before && contextKey(stage, before.state.workflow ?? {}) === contextKey(stage, w)) {
      page = refreshed({ ...page, modification: before.modification });
      const seats = before.state.selectedList?.map((s) => s.id) ?? [];
      const restored = seats.length
        ? selectMany(page, seats)
        : before.state.selected
          ? selectOne(page, before.state.selected.id)
          : null;
      if (restored) page = { ...restored, meta: { ...restored.meta, selectionRestored: true } };
    }
    this.addSystem(stage, page);
    this.render();
  }

  // --- tools ---

  /**
   * Applies an agent's tool call as the prototype's page does: the new page for a selection or a
   * modification, null for `next`, `prev` and `postMessage` (whose pages follow in updates), and
   * nothing for a tool it does not know. It does not check the call against the tools it offers.
   */
  apply(toolName: string, params: Record<string, unknown>, reason?: string): UISpec | null | undefined {
    const page = this.active;
    if (!page) return undefined;
    const why = reason ?? `Apply ${toolName} to reflect user intent in the current UI.`;
    let next: UISpec;
    switch (toolName) {
      case 'filter':
        next = withFilter(page, params as unknown as FilterState);
        if (next.visibleItems.length === 0) throw new ToolFailure('filter would leave no visible items');
        break;
      case 'sort':
        next = withModification(page, { sort: params as unknown as NonNullable<UISpec['modification']['sort']> });
        break;
      case 'highlight':
        next = withModification(page, {
          highlight: { itemIds: Array.isArray(params.itemIds) ? params.itemIds.map(String) : [] },
        });
        break;
      case 'augment': {
        const items = params.items;
        if (!Array.isArray(items) || items.length === 0)
          throw new ToolFailure('augment requires a non-empty array of items');
        for (const item of items) {
          if (!item || typeof item !== 'object' || typeof item.itemId !== 'string' || !item.itemId)
            throw new ToolFailure('Each item must have a non-empty "itemId" string property');
          if (typeof item.value !== 'string') throw new ToolFailure('Each item must have a "value" string property');
        }
        next = withModification(page, { augment: [...(page.modification.augment ?? []), ...items] });
        break;
      }
      case 'clearModification':
        next = cleared(page, params.type);
        break;
      case 'select':
        next = page.stage === 'seat' ? toggle(page, params.itemId) : selectOne(page, params.itemId);
        break;
      case 'selectMultiple': {
        if (page.stage !== 'seat') throw new ToolFailure('selectMultiple is only supported in multi-select stages');
        if (!Array.isArray(params.itemIds)) throw new ToolFailure('selectMultiple requires an "itemIds" array');
        const ids = [
          ...new Set(params.itemIds.filter((x): x is string => typeof x === 'string').map((x) => x.trim())),
        ].filter(Boolean);
        if (ids.length === 0) throw new ToolFailure('selectMultiple requires at least one non-empty item ID');
        for (const id of ids)
          if (!page.visibleItems.some((v) => v.id === id && !v.isDisabled))
            throw new ToolFailure(`selectMultiple received unavailable item ID "${id}"`);
        next = selectMany(page, ids);
        break;
      }
      case 'next':
        this.next(page, reason ?? 'Move to the next stage because the current stage is ready.');
        return null;
      case 'prev':
        this.prev(page, reason ?? 'Return to the previous stage to update an earlier choice.');
        return null;
      case 'postMessage': {
        const text = params.text;
        if (typeof text !== 'string' || !text.trim())
          throw new ToolFailure('postMessage requires a non-empty "text" string');
        this.agentSays(text.trim());
        return null;
      }
      default:
        return null;
    }
    if ((toolName === 'select' || toolName === 'selectMultiple') && next.meta?.selectionRestored) {
      const { selectionRestored: _, ...meta } = next.meta;
      next = { ...next };
      if (Object.keys(meta).length) next.meta = meta;
      else delete next.meta;
    }
    this.addSystem(next.stage, next, { kind: 'tool-modification', toolName, reason: why, source: 'agent' });
    this.render();
    return next;
  }

  private next(page: UISpec, reason: string): void {
    const w = page.state.workflow ?? {};
    const raw = (id: string | undefined) => page.items.find((i) => i.id === id);
    let chosen: Workflow;
    switch (page.stage) {
      case 'confirm':
        return this.book(page);
      case 'seat': {
        const ids = new Set((page.state.selectedList ?? []).map((s) => s.id));
        const seats = page.items.filter((i) => ids.has(i.id));
        if (seats.length === 0) return;
        chosen = { ...w, seats };
        break;
      }
      default: {
        const item = raw(page.state.selected?.id);
        if (!item) return;
        if (page.stage === 'movie') chosen = { movie: item, seats: [] };
        else if (page.stage === 'theater')
          chosen = { ...w, theater: item, date: undefined, showing: undefined, seats: [] };
        else if (page.stage === 'date') chosen = { ...w, date: item, showing: undefined, seats: [] };
        else chosen = { ...w, showing: item, seats: [] };
      }
    }
    const stage = STAGES[STAGES.indexOf(page.stage) + 1] as Stage;
    this.tagLastAgentEntry(page.stage, 'next', reason);
    this.render();
    this.later(() => this.load(stage, project(stage, chosen)));
  }

  private prev(page: UISpec, reason: string): void {
    const stage = STAGES[STAGES.indexOf(page.stage) - 1];
    if (!stage) return;
    this.tagLastAgentEntry(page.stage, 'prev', reason);
    this.render();
    this.later(() => this.load(stage, project(stage, page.state.workflow ?? {})));
  }

  /** The backend books the seats (if they are all still free) and the page shows the booking as complete. */
  private book(page: UISpec): void {
    if (isCompleted(page)) return;
    const w = page.state.workflow ?? {};
    const showingId = w.showing?.id;
    const ids = (w.seats ?? []).map((s) => s.id);
    if (!showingId || ids.length === 0) return;
    this.later(() => {
      const seats = ids.map((id) => this.catalog.seats.find((s) => s.id === id && s.showingId === showingId));
      // A seat taken meanwhile: the prototype shows an error on its page and sends nothing.
      if (seats.some((s) => s?.status !== 'available')) return;
      for (const seat of seats) if (seat) seat.status = 'occupied';
      const booking: PlacedBooking = {
        id: randomUUID(),
        showingId,
        seatIds: ids,
        totalPrice: seats.reduce((sum, s) => sum + (s?.price ?? 0), 0),
      };
      this.bookings.push(booking);
      this.addSystem('confirm', completedPage(page, booking.id));
      this.render();
    });
  }
}
