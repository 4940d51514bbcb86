/** What the booking needs, as a list (compact above the booking page). */
export function Checklist({ items, compact = false }: { items: string[]; compact?: boolean }) {
  if (items.length === 0) return null;
  return (
    <ul className={`checklist${compact ? ' checklist--compact' : ''}`} aria-label="What the booking needs">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
