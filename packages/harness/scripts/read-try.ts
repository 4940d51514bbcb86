import { describeModel, updatePreferences } from '@usher/agent';

const titles = [
  'Iron Tempest',
  'Midnight Ledger',
  'Paper Moons',
  'Harbor Lights',
  'The Quiet Orchard',
  'Starlit Voyage',
  'Giggle Factory',
  'Overtime Heroes',
  'Dust and Thunder',
  'Below the Shelf',
];
const theaters = ['Lakeside 12', 'Old Mill Cinema', 'Riverside Art House', 'Northgate Stadium 16'];
const ctx = {
  today: '2026-12-02',
  knownTitles: titles,
  knownGenres: [
    'Comedy',
    'Thriller',
    'Action',
    'Drama',
    'Documentary',
    'Family',
    'Animation',
    'Romance',
    'Horror',
    'Sci-Fi',
  ],
  knownTheaters: [] as string[],
};
for (const conv of process.argv.slice(2)) {
  let model = { hard: [], soft: [] } as any;
  for (const msg of conv.split(' || ')) {
    const u = updatePreferences(model, msg, ctx as any);
    model = u.model;
    console.log(
      `> ${msg}\n  ${u.summary}${u.unparsed ? ' [unparsed]' : ''}${model.questions?.length ? ` Q: ${model.questions.join(' | ')}` : ''}`,
    );
  }
}
