const ITEMS = [
  { title: '100% Free', text: 'No cost to compare' },
  { title: '4.8 Rating', text: 'From thousands of users' },
  { title: '256-bit Encryption', text: 'Your data is secure' },
  { title: 'All 50 States', text: 'Local pros nationwide' },
]

/** The trust claims of spec section 1: free, 4.8 rating, 256-bit encryption, all 50 states. */
export function TrustBar() {
  return (
    <section aria-label="Why people trust us" className="border-y border-slate-200 bg-slate-50">
      <ul className="mx-auto grid max-w-6xl grid-cols-2 gap-4 px-4 py-6 text-center sm:px-6 md:grid-cols-4">
        {ITEMS.map((item) => (
          <li key={item.title}>
            <p className="text-lg font-bold text-brand-700">{item.title}</p>
            <p className="text-sm text-slate-600">{item.text}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}
