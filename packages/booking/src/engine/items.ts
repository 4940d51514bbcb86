import type { Item, Stage } from '@usher/protocol';
import { type Catalog, roundMoney } from '../scenario/catalog.ts';
import { addDays, minutesOf, shortDateLabel, weekdayOf } from '../time.ts';
import { chosenSeats, type Selections, ticketLines } from './booking.ts';

/**
 * Every option of a stage as a flat record the participant may see. Items are built fresh from
 * the listed fields only, so nothing backend-only (such as a record's `internal`) can leak.
 */
export function stageItems(catalog: Catalog, stage: Stage, sel: Selections): Item[] {
  switch (stage) {
    case 'movie':
      return movieItems(catalog);
    case 'theater':
      return theaterItems(catalog, sel);
    case 'date':
      return dateItems(catalog, sel);
    case 'time':
      return timeItems(catalog, sel);
    case 'seat':
      return seatItems(catalog, sel);
    case 'ticket':
      return ticketItems(catalog, sel);
    case 'confirm':
      return confirmItems(catalog, sel);
  }
}

function movieItems(catalog: Catalog): Item[] {
  const showing = new Set(catalog.scenario.showings.map((s) => s.movieId));
  return catalog.scenario.movies
    .filter((m) => showing.has(m.id))
    .map((m) => ({
      id: m.id,
      value: m.title,
      isDisabled: false,
      title: m.title,
      genre: m.genres[0] ?? '',
      genres: [...m.genres],
      durationMinutes: m.durationMinutes,
      rating: m.rating,
      ageRating: m.ageRating,
      synopsis: m.synopsis,
    }));
}

function theaterItems(catalog: Catalog, sel: Selections): Item[] {
  const showing = new Set(catalog.showingsWhere({ movieId: sel.movieId }).map((s) => s.theaterId));
  return catalog.scenario.theaters
    .filter((t) => showing.has(t.id))
    .map((t) => ({
      id: t.id,
      value: t.name,
      isDisabled: false,
      name: t.name,
      distanceKm: t.distanceKm,
      amenities: [...t.amenities],
    }));
}

function dateItems(catalog: Catalog, sel: Selections): Item[] {
  const showings = catalog.showingsWhere({ movieId: sel.movieId, theaterId: sel.theaterId });
  const today = catalog.scenario.today;
  return catalog.days().map((date) => {
    const count = showings.filter((s) => s.date === date).length;
    return {
      id: date,
      value: shortDateLabel(date),
      isDisabled: count === 0,
      date,
      weekday: weekdayOf(date),
      isToday: date === today,
      isTomorrow: date === addDays(today, 1),
      showings: count,
    };
  });
}

function timeItems(catalog: Catalog, sel: Selections): Item[] {
  return catalog.showingsWhere({ movieId: sel.movieId, theaterId: sel.theaterId, date: sel.date }).map((s) => {
    const seatsLeft = catalog.freeSeatsOf(s).length;
    return {
      id: s.id,
      value: `${s.time} · ${s.format}`,
      isDisabled: seatsLeft === 0,
      time: s.time,
      endTime: catalog.endTimeOf(s),
      format: s.format,
      startMinutes: minutesOf(s.time),
      seatsLeft,
    };
  });
}

function seatItems(catalog: Catalog, sel: Selections): Item[] {
  const showing = catalog.showing(sel.showingId);
  if (!showing) return [];
  const taken = new Set(showing.takenSeats);
  return catalog.seatsOf(showing).map((seat) => ({
    id: seat.id,
    value: seat.id,
    isDisabled: taken.has(seat.id),
    row: seat.row,
    rowIndex: seat.rowIndex,
    number: seat.number,
    kind: seat.kind,
    taken: taken.has(seat.id),
    priceSurcharge: catalog.seatSurcharge(seat.kind),
  }));
}

function ticketItems(catalog: Catalog, sel: Selections): Item[] {
  const showing = catalog.showing(sel.showingId);
  if (!showing) return [];
  return catalog.scenario.ticketTypes.map((type) => ({
    id: type.id,
    value: type.label,
    isDisabled: false,
    label: type.label,
    price: catalog.unitPrice(type, showing.format),
  }));
}

/** One line per ticket type chosen, then one per seat kind that costs extra, so lines add up to the total. */
function confirmItems(catalog: Catalog, sel: Selections): Item[] {
  const showing = catalog.showing(sel.showingId);
  if (!showing) return [];
  const lines: Item[] = ticketLines(catalog, sel, showing.format).map((t) => ({
    id: t.typeId,
    value: `${t.quantity} × ${t.label}`,
    isDisabled: false,
    line: 'ticket',
    label: t.label,
    quantity: t.quantity,
    unitPrice: t.unitPrice,
    subtotal: roundMoney(t.quantity * t.unitPrice),
  }));
  const seats = chosenSeats(catalog, sel);
  for (const kind of ['premium', 'wheelchair', 'standard'] as const) {
    const surcharge = catalog.seatSurcharge(kind);
    const count = seats.filter((s) => s.kind === kind).length;
    if (surcharge > 0 && count > 0) {
      lines.push({
        id: `seat-${kind}`,
        value: `${count} × ${kind} seat`,
        isDisabled: false,
        line: 'seatSurcharge',
        label: `${kind[0]?.toUpperCase()}${kind.slice(1)} seat surcharge`,
        quantity: count,
        unitPrice: surcharge,
        subtotal: roundMoney(count * surcharge),
      });
    }
  }
  return lines;
}
