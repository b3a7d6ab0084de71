import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Button } from '../../components/button'
import { AccessReportView } from './access-report'
import { startRequest, verifyRequest, type RightKind, type Started, type Verified } from './privacy-api'
import { LabelledInput } from '../../components/labelled-input'

export interface RightOption {
  kind: RightKind
  label: string
  description: string
}

type Step = 'ask' | 'code' | 'done'

/** Pick a right, prove the e-mail with a one-time code, see the result: one flow for every right. */
export function RequestFlow({ rights, allowPhone = false }: { rights: RightOption[]; allowPhone?: boolean }) {
  const [step, setStep] = useState<Step>('ask')
  const [kind, setKind] = useState<RightKind>(rights[0].kind)
  const [by, setBy] = useState<'email' | 'phone'>('email')
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [correction, setCorrection] = useState('')
  const [code, setCode] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [problem, setProblem] = useState('')
  const [busy, setBusy] = useState(false)
  const [started, setStarted] = useState<Started | null>(null)
  const [result, setResult] = useState<Verified | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    if (step !== 'ask') heading.current?.focus()
  }, [step])

  const ask = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setProblem('')
    const answer = await startRequest({
      kind,
      email: by === 'email' ? email : '',
      phone: by === 'phone' ? phone : '',
      correction: kind === 'correct' ? correction : '',
    })
    setBusy(false)
    if (!answer.ok) {
      setErrors(answer.failure.fields)
      setProblem(answer.failure.error)
      return
    }
    setErrors({})
    setStarted(answer.data)
    setCode('')
    setStep('code')
  }

  const confirm = async (event: FormEvent) => {
    event.preventDefault()
    if (!started) return
    setBusy(true)
    setProblem('')
    const answer = await verifyRequest(started.requestId, code)
    setBusy(false)
    if (!answer.ok) {
      setErrors(answer.failure.fields)
      setProblem(answer.failure.error)
      return
    }
    setErrors({})
    setResult(answer.data)
    setStep('done')
  }

  const restart = () => {
    setStep('ask')
    setStarted(null)
    setResult(null)
    setProblem('')
    setErrors({})
  }

  const alert = problem ? (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-800">
      {problem}
    </p>
  ) : null

  if (step === 'done' && result) {
    return (
      <section aria-labelledby="privacy-result" className="space-y-6">
        <h2 id="privacy-result" ref={heading} tabIndex={-1} className="text-2xl font-bold text-slate-900">
          {result.kind === 'access' ? 'Your data' : 'Request complete'}
        </h2>
        <p className="rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">{result.message}</p>
        {result.report ? <AccessReportView report={result.report} /> : null}
        <Button variant="secondary" onClick={restart}>
          Make another request
        </Button>
      </section>
    )
  }

  if (step === 'code' && started) {
    return (
      <form onSubmit={confirm} noValidate className="max-w-xl space-y-5" aria-labelledby="privacy-code">
        <h2 id="privacy-code" ref={heading} tabIndex={-1} className="text-2xl font-bold text-slate-900">
          Enter your code
        </h2>
        <p className="text-slate-700">{started.message}</p>
        <LabelledInput
          id="privacy-code-input"
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={errors.code}
        />
        {alert}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Confirm'}
          </Button>
          <Button variant="secondary" onClick={restart}>
            Start again
          </Button>
        </div>
      </form>
    )
  }

  return (
    <form onSubmit={ask} noValidate className="max-w-xl space-y-6">
      <fieldset>
        <legend className="mb-3 text-lg font-semibold text-slate-900">What would you like us to do?</legend>
        <div className="space-y-2">
          {rights.map((right) => (
            <label
              key={right.kind}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-checked:border-brand-600 has-checked:bg-brand-50"
            >
              <input
                type="radio"
                name="right"
                value={right.kind}
                checked={kind === right.kind}
                onChange={() => setKind(right.kind)}
                className="mt-1 size-5 shrink-0 accent-brand-600"
              />
              <span>
                <span className="block font-semibold text-slate-900">{right.label}</span>
                <span className="block text-sm text-slate-600">{right.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {allowPhone ? (
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-800">Find my data by</legend>
          <div className="flex gap-6">
            {(['email', 'phone'] as const).map((option) => (
              <label key={option} className="flex min-h-11 cursor-pointer items-center gap-2">
                <input
                  type="radio"
                  name="by"
                  checked={by === option}
                  onChange={() => setBy(option)}
                  className="size-5 accent-brand-600"
                />
                {option === 'email' ? 'E-mail address' : 'Phone number'}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {by === 'email' ? (
        <LabelledInput
          id="privacy-email"
          label="E-mail address"
          hint="We send a one-time code to this address to confirm it is yours."
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
      ) : (
        <LabelledInput
          id="privacy-phone"
          label="Phone number"
          hint="We send a one-time code to the e-mail address you gave us with this number."
          type="tel"
          autoComplete="tel"
          value={phone}
          onChange={(event) => setPhone(event.target.value)}
          error={errors.phone}
        />
      )}
      {kind === 'correct' ? (
        <LabelledInput
          id="privacy-correction"
          label="What should we correct?"
          hint="For example: my last name is spelled Garcia, not Garsia."
          multiline
          value={correction}
          onChange={(event) => setCorrection(event.target.value)}
          error={errors.correction}
        />
      ) : null}
      {alert}
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending…' : 'Send me a code'}
      </Button>
    </form>
  )
}
