import { useEffect, useState } from 'react'
import { fetchPartnerOptions, type PartnerOptions } from '../../lib/partner-options'
import { PortalError, providerPath, request, type Profile } from '../api'
import { useSignedIn } from '../session'
import { ErrorNotice, Loading } from '../ui'
import { ProfileForm } from './profile-form'
import { RatingCard } from './rating-card'
import { StatusCard } from './status-card'

export default function ProfilePage() {
  const { provider } = useSignedIn()
  const [profile, setProfile] = useState<Profile | null>(null)
  const [options, setOptions] = useState<PartnerOptions | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    Promise.all([request<Profile>('GET', providerPath(provider.id)), fetchPartnerOptions()])
      .then(([answer, services]) => {
        setProfile(answer)
        setOptions(services)
      })
      .catch((failure: PortalError | Error) => setError(failure.message))
  }, [provider.id])

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Profile</h1>
      <ErrorNotice message={error} />
      {profile && options ? (
        <>
          <StatusCard profile={profile} onSaved={setProfile} />
          <RatingCard profile={profile} />
          <ProfileForm profile={profile} options={options} onSaved={setProfile} />
        </>
      ) : error ? null : <Loading />}
    </div>
  )
}
