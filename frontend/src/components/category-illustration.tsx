// The project's own drawings (public/illustrations/), shown with <img> so they cost no JavaScript.
// Width and height are fixed in the markup so the page never shifts when a drawing arrives.
const DRAWN = new Set(['services', 'legal', 'insurance', 'financial'])

export function CategoryIllustration({
  id,
  className,
  eager = false,
}: {
  id: string
  className?: string
  /** Above the fold: load at once. Below it: wait until the visitor scrolls near. */
  eager?: boolean
}) {
  const name = DRAWN.has(id) ? id : 'services'
  return (
    <img
      src={`/illustrations/${name}.svg`}
      alt=""
      width={160}
      height={120}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className={className}
    />
  )
}
