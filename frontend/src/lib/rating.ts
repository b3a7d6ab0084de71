// A provider's rating in words, as the server's e-mails put it (delivery/ratings.py): shown only
// when at least one consumer rated it.
export interface Rating {
  average: number | null
  count: number
}

export const hasRating = (rating: Rating | null | undefined): rating is { average: number; count: number } =>
  !!rating && rating.count > 0 && rating.average !== null

export const ratingInWords = (rating: { average: number; count: number }) =>
  `${rating.average.toFixed(1)} out of 5 from ${rating.count} review${rating.count === 1 ? '' : 's'}`
