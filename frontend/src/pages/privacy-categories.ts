// The CCPA categories of personal information (Cal. Civ. Code § 1798.140) and whether the
// site collects each: it takes contact, address, birth date, gender and some health or
// financial answers through its forms (spec section 1), and nothing biometric or positional.
export const PRIVACY_CATEGORIES = [
  { letter: 'A', name: 'Identifiers', examples: 'Name, postal address, email address, phone number, IP address, online identifier.', collected: true },
  { letter: 'B', name: 'Personal information categories listed in the California Customer Records statute', examples: 'Name, address, telephone number, insurance or financial information you enter in a form.', collected: true },
  { letter: 'C', name: 'Protected classification characteristics under California or federal law', examples: 'Age (40 years or older), date of birth, gender.', collected: true },
  { letter: 'D', name: 'Commercial information', examples: 'Services you are interested in or considering.', collected: true },
  { letter: 'E', name: 'Biometric information', examples: 'Fingerprints, faceprints, voiceprints.', collected: false },
  { letter: 'F', name: 'Internet or other similar network activity', examples: 'Browsing history on this site, interactions with our forms and advertisements.', collected: true },
  { letter: 'G', name: 'Geolocation data', examples: 'Precise physical location or movements.', collected: false },
  { letter: 'H', name: 'Sensory data', examples: 'Audio, electronic, visual or similar information.', collected: false },
  { letter: 'I', name: 'Professional or employment-related information', examples: 'Current or past job history, work status relevant to a claim.', collected: true },
  { letter: 'J', name: 'Non-public education information', examples: 'Education records, grades, transcripts.', collected: false },
  { letter: 'K', name: 'Inferences drawn from other personal information', examples: 'Profile reflecting preferences and characteristics.', collected: false },
] as const
