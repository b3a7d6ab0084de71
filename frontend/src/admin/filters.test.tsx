import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { FilterPanel } from './filters'

afterEach(cleanup)

function panel(active: number) {
  render(
    <FilterPanel label="Lead filters" active={active} className="grid-cols-2">
      <label>Status <select><option>Any</option></select></label>
    </FilterPanel>,
  )
  return { toggle: screen.getByRole('button', { name: /Filters/ }), form: screen.getByRole('form', { name: 'Lead filters' }) }
}

describe('the filter panel', () => {
  it('folds on a phone until asked for, and always shows from md up', async () => {
    const { toggle, form } = panel(0)
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(toggle.getAttribute('aria-controls')).toBe(form.id)
    expect(form.className.split(' ')).toEqual(expect.arrayContaining(['hidden', 'md:grid']))
    await userEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(form.className.split(' ')).toContain('grid')
    expect(form.className.split(' ')).not.toContain('hidden')
  })

  it('starts open, and says how many are set, when a filter is already set', () => {
    const { toggle, form } = panel(2)
    expect(toggle.textContent?.trim()).toBe('Filters (2 set)')
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(form.className.split(' ')).not.toContain('hidden')
  })
})
