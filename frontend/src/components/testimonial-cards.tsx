export interface Testimonial {
  quote: string
  author: string
  location: string
}

function Stars() {
  return (
    <p className="text-accent-500">
      <span aria-hidden="true">★★★★★</span>
      <span className="sr-only">5 out of 5 stars</span>
    </p>
  )
}

export function TestimonialCards({ testimonials }: { testimonials: Testimonial[] }) {
  return (
    <ul className="grid gap-6 md:grid-cols-3">
      {testimonials.map((item) => (
        <li key={item.author} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <Stars />
          <blockquote className="mt-3 flex-1 text-slate-700">“{item.quote}”</blockquote>
          <p className="mt-4 font-semibold text-brand-900">{item.author}</p>
          <p className="text-sm text-slate-500">{item.location}</p>
        </li>
      ))}
    </ul>
  )
}
