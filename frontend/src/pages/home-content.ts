// Static copy of the home page (spec section 2, Home): testimonials and success stories.
export const HOME_TESTIMONIALS = [
  {
    quote: 'I had three HVAC quotes within a day. The contractor I picked replaced our furnace before the cold snap.',
    author: 'Jennifer M.',
    location: 'Columbus, OH',
  },
  {
    quote: 'After my accident I did not know where to start. I was talking to a local attorney the same afternoon.',
    author: 'Marcus T.',
    location: 'Phoenix, AZ',
  },
  {
    quote: 'Comparing insurance used to take me weeks. This took ten minutes and I saved on my premium.',
    author: 'Linda K.',
    location: 'Tampa, FL',
  },
]

export const SUCCESS_STORIES = [
  { title: 'Roof replaced in 5 days', text: 'A storm-damaged roof in Dallas was inspected, quoted and replaced within a week.', tag: 'Home Services' },
  { title: 'Case review within 24 hours', text: 'A workers’ compensation claimant in Ohio spoke with an attorney the next morning.', tag: 'Legal' },
  { title: 'Coverage for the whole family', text: 'A family of four in Georgia compared health plans and found one that fit their budget.', tag: 'Insurance' },
  { title: 'A lower monthly payment', text: 'A homeowner in Colorado compared refinancing offers and cut their monthly payment.', tag: 'Financial' },
]
