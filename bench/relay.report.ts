import type { Table } from './lib/suite.ts';
import { num } from './lib/table.ts';
import type { Phase, RelayBenchResults } from './relay.bench.ts';

/** The targets the figures are printed against; the bench reports them, it does not assert them. */
const TARGET_P50_RATIO = 1.3;
const TARGET_ROUND_TRIPS_PER_SECOND = 10_000;
/** Against the forwarder with the same duties: p50 within 1.3× (1 room), throughput at least 0.8× (100 rooms). */
const TARGET_DUTIES_P50_RATIO = 1.3;
const TARGET_DUTIES_THROUGHPUT_RATIO = 0.8;
/** RSS growth from the first quarter of the long run to its end that still counts as flat. */
const FLAT_GROWTH = 0.1;

const MiB = 1024 * 1024;
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
const times = (x: number) => `${num(x, 2)}×`;
const percent = (x: number) => `${x >= 0 ? '+' : ''}${num(x * 100, 1)}%`;

function row(label: string, rooms: number, p: Phase, logging: boolean): string[] {
  return [
    label,
    String(rooms),
    num(p.p50Us),
    num(p.p99Us),
    num(p.perSecond),
    num(p.roundTrips),
    `${num(p.serverCores * 100)}%`,
    num((p.serverCores * 1e6) / p.perSecond),
    `${num(p.loadCores * 100)}%`,
    logging ? num(p.logBytesPerSecond / MiB, 1) : '',
  ];
}

function ratioRow(label: string, relay: Phase, baseline: Phase): string[] {
  const cpuPerTrip = (p: Phase) => p.serverCores / p.perSecond;
  return [
    `  ${label}`,
    '',
    times(relay.p50Us / baseline.p50Us),
    times(relay.p99Us / baseline.p99Us),
    times(relay.perSecond / baseline.perSecond),
    '',
    '',
    times(cpuPerTrip(relay) / cpuPerTrip(baseline)),
    '',
    '',
  ];
}

function roundTripTable(r: RelayBenchResults): Table {
  const { oneRoom, manyRooms } = r;
  const p50Ratio = oneRoom.relay.p50Us / oneRoom.baseline.p50Us;
  const throughput = manyRooms.relay.perSecond;
  const dutiesP50Ratio = oneRoom.relay.p50Us / oneRoom.sameDuties.p50Us;
  const dutiesThroughputRatio = manyRooms.relay.perSecond / manyRooms.sameDuties.perSecond;
  return {
    title: 'Round trip tool.call → tool.result (closed loop, one call outstanding per room; study logging on)',
    columns: [
      '',
      'rooms',
      'p50 µs',
      'p99 µs',
      'trips/s',
      'measured',
      'server CPU',
      'CPU µs/trip',
      'load CPU',
      'log MiB/s',
    ],
    rows: [
      row('relay', 1, oneRoom.relay, true),
      row('baseline', 1, oneRoom.baseline, false),
      row('same-duties', 1, oneRoom.sameDuties, true),
      ratioRow('relay/baseline', oneRoom.relay, oneRoom.baseline),
      ratioRow('relay/same-duties', oneRoom.relay, oneRoom.sameDuties),
      row('relay', manyRooms.rooms, manyRooms.relay, true),
      row('baseline', manyRooms.rooms, manyRooms.baseline, false),
      row('same-duties', manyRooms.rooms, manyRooms.sameDuties, true),
      ratioRow('relay/baseline', manyRooms.relay, manyRooms.baseline),
      ratioRow('relay/same-duties', manyRooms.relay, manyRooms.sameDuties),
    ],
    notes: [
      'baseline: a bare ws forwarder; same-duties: a ws forwarder that checks each frame is JSON on one line and writes it as one line to a file (synchronous write) before forwarding it.',
      `target: relay p50 within ${TARGET_DUTIES_P50_RATIO}× of the same-duties forwarder (1 room): ${times(dutiesP50Ratio)}, ${verdict(dutiesP50Ratio <= TARGET_DUTIES_P50_RATIO)}`,
      `target: relay throughput across ${manyRooms.rooms} rooms at least ${TARGET_DUTIES_THROUGHPUT_RATIO}× the same-duties forwarder's: ${times(dutiesThroughputRatio)}, ${verdict(dutiesThroughputRatio >= TARGET_DUTIES_THROUGHPUT_RATIO)}`,
      `target: relay p50 within ${TARGET_P50_RATIO}× of the bare forwarder (1 room): ${times(p50Ratio)}, ${verdict(p50Ratio <= TARGET_P50_RATIO)}`,
      `target: ≥${num(TARGET_ROUND_TRIPS_PER_SECOND)} round trips/s across ${manyRooms.rooms} rooms with logging on: ${num(throughput)}, ${verdict(throughput >= TARGET_ROUND_TRIPS_PER_SECOND)}`,
      `tool.call → the state.updated after its result (an agent that verifies goes on then), 1 room: relay p50 ${num(oneRoom.relay.settledP50Us)} µs, baseline ${num(oneRoom.baseline.settledP50Us)} µs (${times(oneRoom.relay.settledP50Us / oneRoom.baseline.settledP50Us)}), same-duties ${num(oneRoom.sameDuties.settledP50Us)} µs (${times(oneRoom.relay.settledP50Us / oneRoom.sameDuties.settledP50Us)})`,
      'server CPU: CPU time of the server process per second (100% = one core); load CPU: the same for the load generator.',
    ],
  };
}

function memoryTable(r: RelayBenchResults): Table {
  const { memory } = r;
  const rss = memory.rss.map((s) => s.rssKiB);
  const [start = Number.NaN, quarter = Number.NaN] = rss;
  const end = rss.at(-1) ?? Number.NaN;
  const settled = end / quarter - 1;
  const { run } = memory;
  return {
    title: `Relay memory over ${num(memory.frames)} frames received (${r.manyRooms.rooms} rooms, ${num(run.seconds, 1)} s, ${num(run.perSecond)} trips/s, server CPU ${num(run.serverCores * 100)}%, log ${num(run.logBytesPerSecond / MiB, 1)} MiB/s)`,
    columns: ['', 'frames', 'RSS MiB'],
    rows: memory.rss.map((s) => [s.label, num(s.frames), num(s.rssKiB / 1024, 1)]),
    notes: [
      `peak RSS (VmHWM over the relay's whole life): ${num(memory.peakKiB / 1024, 1)} MiB`,
      `RSS start → end ${percent(end / start - 1)}; 25% → end ${percent(settled)} (the first quarter includes the heap growing to its working size)`,
      `target: flat over the run (25% → end within ${FLAT_GROWTH * 100}%): ${verdict(settled <= FLAT_GROWTH)}`,
    ],
  };
}

export function relayTables(r: RelayBenchResults): Table[] {
  return [
    {
      title: 'Frames of one round trip (the same bytes through the relay and the forwarder)',
      columns: ['frame', 'direction', 'bytes'],
      rows: [
        ['tool.call', 'agent → host', num(r.frameSizes.toolCall)],
        ['tool.result', 'host → agent', num(r.frameSizes.toolResult)],
        ['state.updated', 'host → agent', num(r.frameSizes.stateUpdated)],
      ],
    },
    roundTripTable(r),
    memoryTable(r),
  ];
}
