import { type CinemaCatalog, farePrice, type SeatRecord, type Session, seatsOfSession } from './catalog.ts';

/*
 * The second host's booking flow: film, cinema, day, session, seats, fares, then the order summary,
 * where `next` places the order. Its page state is its own: raw records with no `value`, selections
 * as `{id, value}`, a `workflow` counter, tools without categories whose parameters are maps of
 * fields, seats selected several at a time, and a fares step where `setFare` says how many of the
 * seats go at each fare (all at 0 to begin with; one fare per seat before going on).
 */

export type StepName = 'movie' | 'theater' | 'date' | 'time' | 'seat' | 'tickets' | 'confirm';
const STEPS: readonly StepName[] = ['movie', 'theater', 'date', 'time', 'seat', 'tickets', 'confirm'];
const MAX_SEATS = 10;

/** One fare of an order: how many seats go at it, and at what price each. */
export interface FareLine {
  fareCode: string;
  count: number;
  price: number;
}

export interface PlacedOrder {
  orderId: string;
  sessionRef: string;
  seats: string[];
  fares: FareLine[];
  total: number;
}

export type Outcome = { ok: true } | { ok: false; code: string; message: string };

const fail = (code: string, message: string): Outcome => ({ ok: false, code, message });
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export class CinemaFlow {
  step: StepName | null = 'movie';
  private film?: string;
  private cinema?: string;
  private day?: string;
  private session?: string;
  private seats: string[] = [];
  /** Seats per fare code; cleared whenever the seats change. */
  private counts: Record<string, number> = {};
  readonly orders: PlacedOrder[] = [];

  constructor(
    private readonly catalog: CinemaCatalog,
    /** What the site leaves off its pages (SecondHostOptions). */
    private readonly shows: { noFeatures?: boolean | undefined; everyFilm?: boolean | undefined } = {},
  ) {}

  private sessions(): Session[] {
    return this.catalog.sessions.filter(
      (s) =>
        (this.film === undefined || s.filmId === this.film) &&
        (this.cinema === undefined || s.cinemaId === this.cinema) &&
        (this.day === undefined || s.day === this.day),
    );
  }

  private current(): Session | undefined {
    return this.catalog.sessions.find((s) => s.sessionRef === this.session);
  }

  /** The records the step lists. */
  records(step: StepName): Array<Record<string, unknown>> {
    const listed = new Set(this.catalog.sessions.map((s) => s.filmId));
    switch (step) {
      case 'movie':
        return this.catalog.films.filter((f) => this.shows.everyFilm || listed.has(f.filmId)).map((f) => ({ ...f }));
      case 'theater': {
        const here = new Set(this.catalog.sessions.filter((s) => s.filmId === this.film).map((s) => s.cinemaId));
        return this.catalog.cinemas
          .filter((c) => here.has(c.cinemaId))
          .map(({ cinemaId, cinemaName, distanceMiles, features }) => ({
            cinemaId,
            cinemaName,
            distanceMiles,
            ...(!this.shows.noFeatures && { features }),
          }));
      }
      case 'date':
        return this.catalog.days.map((day) => {
          const count = this.catalog.sessions.filter(
            (s) => s.filmId === this.film && s.cinemaId === this.cinema && s.day === day,
          ).length;
          const weekday = WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()];
          return { day, label: `${weekday}, ${day.slice(5)}`, sessions: count, disabled: count === 0 };
        });
      case 'time':
        return this.sessions().map((s) => {
          const availableSeats = seatsOfSession(this.catalog, s).filter((seat) => !seat.occupied).length;
          const { sessionRef, startsAt, screen, ticketPrice } = s;
          return { sessionRef, startsAt, screen, ticketPrice, availableSeats, disabled: availableSeats === 0 };
        });
      case 'seat': {
        const session = this.current();
        return session ? seatsOfSession(this.catalog, session).map((seat) => ({ ...seat })) : [];
      }
      case 'tickets': {
        const session = this.current();
        if (!session) return [];
        return this.catalog.fares.map((f) => ({
          fareCode: f.fareCode,
          name: f.name,
          ...(f.ages ? { ages: f.ages } : {}),
          price: farePrice(session, f),
          count: this.counts[f.fareCode] ?? 0,
        }));
      }
      case 'confirm':
        return this.fareLines().map((f) => ({
          line: f.fareCode,
          label: `${f.count} × ${this.fareName(f.fareCode)}`,
          amount: Math.round(f.count * f.price * 100) / 100,
        }));
    }
  }

  private fareName(code: string): string {
    return this.catalog.fares.find((f) => f.fareCode === code)?.name ?? code;
  }

  /** The fares with seats at them, in the site's order. */
  private fareLines(): FareLine[] {
    const session = this.current();
    if (!session) return [];
    return this.catalog.fares
      .filter((f) => (this.counts[f.fareCode] ?? 0) > 0)
      .map((f) => ({ fareCode: f.fareCode, count: this.counts[f.fareCode] ?? 0, price: farePrice(session, f) }));
  }

  private fareTotal(): number {
    return Object.values(this.counts).reduce((sum, n) => sum + n, 0);
  }

  private seatRecords(): SeatRecord[] {
    const session = this.current();
    return session ? seatsOfSession(this.catalog, session) : [];
  }

  private total(): number {
    const fares = this.fareLines().reduce((sum, f) => sum + f.count * f.price, 0);
    const extra = this.seatRecords()
      .filter((s) => this.seats.includes(s.seatRef))
      .reduce((sum, s) => sum + s.extraCharge, 0);
    return Math.round((fares + extra) * 100) / 100;
  }

  /** The step's selection as this site shows it: `{id, value}`. */
  private selection(step: StepName): { id: string; value: string } | undefined {
    const id = { movie: this.film, theater: this.cinema, date: this.day, time: this.session }[step as string];
    if (id === undefined) return undefined;
    const label =
      step === 'movie'
        ? this.catalog.films.find((f) => f.filmId === id)?.name
        : step === 'theater'
          ? this.catalog.cinemas.find((c) => c.cinemaId === id)?.cinemaName
          : step === 'time'
            ? this.current()?.startsAt
            : id;
    return { id, value: label ?? id };
  }

  /** The page: the step, its records, its state, and the seat map's shape. */
  page(): Record<string, unknown> | null {
    const step = this.step;
    if (step === null) return null;
    const items = this.records(step);
    const state: Record<string, unknown> = { workflow: { step: STEPS.indexOf(step) + 1, of: STEPS.length } };
    const selected = this.selection(step);
    if (selected) state.selected = selected;
    if (step === 'seat') state.selectedSeats = this.seats.map((id) => ({ id, value: id }));
    if (step === 'tickets') state.fares = { seats: this.seats.length, chosen: this.fareTotal() };
    if (step === 'confirm') {
      const session = this.current();
      state.order = {
        film: this.selection('movie')?.value,
        cinema: this.selection('theater')?.value,
        day: this.day,
        startsAt: session?.startsAt,
        seats: [...this.seats],
        tickets: this.fareLines().map((f) => ({ type: this.fareName(f.fareCode), count: f.count, price: f.price })),
        totalPrice: this.total(),
        currency: this.catalog.currency,
      };
    }
    const cinema = this.catalog.cinemas.find((c) => c.cinemaId === this.cinema);
    return {
      stage: step,
      title: `Step ${STEPS.indexOf(step) + 1}: ${step}`,
      items,
      visibleItems: items,
      state,
      modification: {},
      display: {
        component: step === 'seat' ? 'seatMap' : step === 'tickets' ? 'stepper' : 'buttonGroup',
        valueField: 'label',
      },
      ...(step === 'seat' &&
        cinema && {
          meta: {
            rows: Array.from({ length: cinema.rowCount }, (_, n) => n + 1),
            seatsPerRow: cinema.seatsPerRow,
            aisles: cinema.aisles,
          },
        }),
    };
  }

  /** The tools of the step, as this site describes them. */
  tools(): Array<Record<string, unknown>> {
    const step = this.step;
    if (step === null) return [];
    const tools: Array<Record<string, unknown>> = [];
    if (step === 'seat')
      tools.push({ name: 'select', description: 'Toggle the listed seats', parameters: { ids: 'string[]' } });
    else if (step === 'tickets')
      tools.push({
        name: 'setFare',
        description: 'How many of the chosen seats go at this fare',
        parameters: { fareCode: 'string', count: 'number' },
      });
    else if (step !== 'confirm')
      tools.push({ name: 'select', description: 'Pick one option', parameters: { id: 'string' } });
    tools.push({
      name: 'next',
      description: step === 'confirm' ? 'Place the order' : 'Continue',
      parameters: {},
    });
    if (step !== 'movie') tools.push({ name: 'prev', description: 'Back one step', parameters: {} });
    return tools;
  }

  apply(toolName: string, params: Record<string, unknown>): Outcome {
    const step = this.step;
    if (step === null) return fail('NO_ACTIVE_SPEC', 'no booking in progress');
    if (!this.tools().some((t) => t.name === toolName)) return fail('UNKNOWN_TOOL', `${toolName} is not offered now`);
    if (toolName === 'prev') {
      this.step = STEPS[Math.max(0, STEPS.indexOf(step) - 1)] ?? 'movie';
      return { ok: true };
    }
    if (toolName === 'next') return this.next(step);
    if (toolName === 'setFare') return this.setFare(params.fareCode, params.count);
    return step === 'seat' ? this.toggleSeats(params.ids) : this.choose(step, params.id);
  }

  private setFare(code: unknown, count: unknown): Outcome {
    if (!this.catalog.fares.some((f) => f.fareCode === code))
      return fail(
        'INVALID_PARAMS',
        `setFare needs a fareCode: ${this.catalog.fares.map((f) => f.fareCode).join(', ')}`,
      );
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
      return fail('INVALID_PARAMS', 'setFare needs count: a whole number from 0');
    const others = this.fareTotal() - (this.counts[code as string] ?? 0);
    if (others + count > this.seats.length)
      return fail('INVALID_PARAMS', `only ${this.seats.length} seats are chosen; ${others} already have a fare`);
    this.counts[code as string] = count;
    return { ok: true };
  }

  private choose(step: StepName, id: unknown): Outcome {
    if (typeof id !== 'string') return fail('INVALID_PARAMS', 'select needs an id');
    const record = this.records(step).find((r) => [r.filmId, r.cinemaId, r.day, r.sessionRef].includes(id));
    if (!record || record.disabled === true) return fail('INVALID_PARAMS', `${id} cannot be chosen here`);
    // A new choice drops the later ones.
    if (step === 'movie') [this.film, this.cinema, this.day, this.session] = [id, undefined, undefined, undefined];
    if (step === 'theater') [this.cinema, this.day, this.session] = [id, undefined, undefined];
    if (step === 'date') [this.day, this.session] = [id, undefined];
    if (step === 'time') this.session = id;
    this.seats = [];
    this.counts = {};
    return { ok: true };
  }

  private toggleSeats(ids: unknown): Outcome {
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((x) => typeof x === 'string'))
      return fail('INVALID_PARAMS', 'select needs ids: a list of seat ids');
    const seats = this.seatRecords();
    const next = new Set(this.seats);
    for (const id of ids as string[]) {
      const seat = seats.find((s) => s.seatRef === id);
      if (!seat || seat.occupied) return fail('INVALID_PARAMS', `seat ${id} is not free`);
      if (next.has(id)) next.delete(id);
      else next.add(id);
    }
    if (next.size > MAX_SEATS) return fail('INVALID_PARAMS', `at most ${MAX_SEATS} seats`);
    this.seats = seats.filter((s) => next.has(s.seatRef)).map((s) => s.seatRef);
    this.counts = {};
    return { ok: true };
  }

  private next(step: StepName): Outcome {
    const chosen = { movie: this.film, theater: this.cinema, date: this.day, time: this.session }[step as string];
    if (step === 'tickets' && this.fareTotal() !== this.seats.length)
      return fail(
        'INVALID_PARAMS',
        `choose a fare for each of the ${this.seats.length} seats (${this.fareTotal()} so far)`,
      );
    if (step === 'seat' ? this.seats.length === 0 : !['tickets', 'confirm'].includes(step) && chosen === undefined)
      return fail('INVALID_PARAMS', `choose on the ${step} step first`);
    if (step !== 'confirm') {
      this.step = STEPS[STEPS.indexOf(step) + 1] ?? null;
      return { ok: true };
    }
    const session = this.current();
    if (!session) return fail('TOOL_EXECUTION_FAILED', 'the session is gone');
    const orderId = `CO-${String(this.orders.length + 1).padStart(4, '0')}`;
    this.orders.push({
      orderId,
      sessionRef: session.sessionRef,
      seats: [...this.seats],
      fares: this.fareLines(),
      total: this.total(),
    });
    session.sold.push(...this.seats);
    this.step = null;
    return { ok: true };
  }

  /** A new booking from the first step (after `session.end`). */
  reset(): void {
    [this.film, this.cinema, this.day, this.session, this.seats] = [undefined, undefined, undefined, undefined, []];
    this.counts = {};
    this.step = 'movie';
  }
}
