// Consumers' average rating of the network's providers (GET /api/ratings, docs/site-claims.md): the
// server answers `shown: false` until there are enough reviews, and the site then claims no rating.
import { useEffect, useState } from 'react'
import type { components } from './api-schema'

export type PublicRating = components['schemas']['PublicRating']
export interface SiteRating {
  average: number
  count: number
}

let pending: Promise<SiteRating | null> | null = null

async function readSiteRating(): Promise<SiteRating | null> {
  const response = await fetch('/api/ratings', { headers: { Accept: 'application/json' } })
  if (!response.ok) throw new Error(`ratings: ${response.status}`)
  const rating = (await response.json()) as PublicRating
  return rating.shown && rating.average !== null && rating.count > 0 ? { average: rating.average, count: rating.count } : null
}

/** The rating to show, or null (too few reviews, or unreadable); one request per page load. */
export function fetchSiteRating(): Promise<SiteRating | null> {
  pending ??= readSiteRating().catch(() => {
    pending = null // asked again next time
    return null
  })
  return pending
}

/** Null while the page is prerendered and hydrated (nothing is claimed), then the rating if shown. */
export function useSiteRating(): SiteRating | null {
  const [rating, setRating] = useState<SiteRating | null>(null)
  useEffect(() => {
    let live = true
    void fetchSiteRating().then((found) => {
      if (live) setRating(found)
    })
    return () => {
      live = false
    }
  }, [])
  return rating
}

export const averageInWords = (rating: SiteRating) => `${rating.average.toFixed(1)} out of 5`
export const reviewsInWords = (rating: SiteRating) => `${rating.count} consumer review${rating.count === 1 ? '' : 's'}`
