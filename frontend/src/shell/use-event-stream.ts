import { useEffect, useLayoutEffect, useRef } from 'react'

interface Handlers {
  /** One `event` from the stream, its data read as JSON. */
  onEvent: (data: unknown) => void
  /** The stream (re)connected: whatever happened while it was away is read again. */
  onConnect: () => void
}

/**
 * A signed-in app's live updates (server-sent events at `url`). The browser reconnects by itself
 * after a dropped connection; a refused one (the session ended) stays closed, and the page's next
 * call signs the person out. The handlers may change on every render without reconnecting.
 */
export function useEventStream(url: string, event: string, handlers: Handlers): void {
  const latest = useRef(handlers)
  useLayoutEffect(() => {
    latest.current = handlers
  })
  useEffect(() => {
    if (typeof EventSource === 'undefined') return
    const source = new EventSource(url)
    const received = (message: MessageEvent<string>) => {
      let data: unknown
      try {
        data = JSON.parse(message.data)
      } catch {
        return  // not JSON: nothing to say
      }
      latest.current.onEvent(data)
    }
    const connected = () => latest.current.onConnect()
    source.addEventListener(event, received)
    source.addEventListener('open', connected)
    return () => source.close()
  }, [url, event])
}
