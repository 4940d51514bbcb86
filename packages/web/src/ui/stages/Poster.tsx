import { posterArt } from './poster.ts';

/** A generated poster: a gradient and the title's initials, the same for a title every time. */
export function Poster({ title }: { title: string }) {
  const art = posterArt(title);
  return (
    <span
      className="poster"
      aria-hidden="true"
      style={{ backgroundImage: `linear-gradient(${art.angle}deg, ${art.from}, ${art.to})` }}
    >
      <span className="poster__initials">{art.initials}</span>
      <span className="poster__title">{title}</span>
    </span>
  );
}
