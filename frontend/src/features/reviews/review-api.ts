// The review link's API (docs/portal.md, "Reviews"): the token from /review#<token> is posted,
// never put in a URL.
import { postJson } from '../../lib/post-json'
import type { components } from '../../lib/api-schema'

export type ReviewLinkInfo = components['schemas']['ReviewLinkInfo']
export type ReviewThanks = components['schemas']['ReviewThanks']

export const MAX_REVIEW_TEXT = 1000

export const lookUpReview = (token: string) => postJson<ReviewLinkInfo>('/api/reviews/lookup', { token })

export const sendReview = (token: string, stars: number, text: string) =>
  postJson<ReviewThanks>('/api/reviews', { token, stars, text: text.trim() || null })
