// Simple line icons per category, drawn inline so pages need no image downloads.
const PATHS: Record<string, string> = {
  services: 'M3 11l9-7 9 7M5 10v10h14V10M10 20v-6h4v6',
  legal: 'M12 3v18M5 21h14M4 8h16M7 8l-3 7a3 3 0 006 0L7 8zm10 0l-3 7a3 3 0 006 0l-3-7z',
  insurance: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3zM9 12l2 2 4-4',
  financial: 'M4 10h16M6 10v8M10 10v8M14 10v8M18 10v8M3 20h18M12 3l9 5H3l9-5z',
}

export function CategoryIcon({ id, className = 'h-7 w-7' }: { id: string; className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor"
      strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={PATHS[id] ?? PATHS.services} />
    </svg>
  )
}
