/** A generated poster: colours and initials derived from the title alone, so a movie always looks the same. */
export interface PosterArt {
  initials: string;
  /** CSS colours of the gradient, light end first. */
  from: string;
  to: string;
  angle: number;
}

const MINOR_WORDS = new Set(['the', 'a', 'an', 'and', 'of', 'in', 'on', 'at', 'to', 'for']);

/** 32-bit FNV-1a: small, stable, and spreads similar titles apart. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** `The Quiet Harbor` → `QH`; `Encore` → `EN`. */
export function initialsOf(title: string): string {
  const words = title.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  const major = words.filter((w) => !MINOR_WORDS.has(w.toLowerCase()));
  const picked = major.length > 0 ? major : words;
  if (picked.length === 0) return '?';
  if (picked.length === 1) return (picked[0] ?? '').slice(0, 2).toUpperCase();
  return `${picked[0]?.[0] ?? ''}${picked[1]?.[0] ?? ''}`.toUpperCase();
}

export function posterArt(title: string): PosterArt {
  const hash = hashString(title);
  const hue = hash % 360;
  const shift = 25 + ((hash >>> 9) % 50);
  return {
    initials: initialsOf(title),
    from: `hsl(${hue} 62% 44%)`,
    to: `hsl(${(hue + shift) % 360} 58% 18%)`,
    angle: 135 + ((hash >>> 17) % 90),
  };
}
