#!/usr/bin/env bash
# `make build`: the browser's bundles, then every public page rendered to HTML, into <dist>.
#
#   bash scripts/build.sh <dist>
#
# A finished build is kept in the build cache (SERVICEMATCH_BUILD_CACHE, by default
# ~/.cache/servicematch/build; empty: no cache) under a hash of everything it is made from:
# the frontend's files, the installed packages' lock, the route table the browser imports,
# the catalogue, the server's site_data export, Node's version and this script and the
# Makefile. While that hash is unchanged the build is copied from the cache instead of made
# again; <dist> that already holds it is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
dist=$(realpath -m "$1")
dist_in_tree=$(realpath -m --relative-to=. "$dist")
cache=${SERVICEMATCH_BUILD_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/servicematch/build}
KEEP=3  # builds kept in the cache, the most recently used

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m uv run --frozen python -m servicematch.web.site_data > "$work/site.json"

key=$(
  {
    node --version
    find frontend catalog backend/servicematch/web/routes.json Makefile scripts/build.sh \
      \( -name node_modules -o -path frontend/dist -o -path "$dist_in_tree" \) -prune -o -type f -print0 \
      | LC_ALL=C sort -z | xargs -0 sha256sum
    sha256sum frontend/node_modules/.package-lock.json
    sha256sum < "$work/site.json"
  } | sha256sum | cut -c1-32
)
stamp="$dist/.vite/build-key"

if [[ -f "$stamp" && $(cat "$stamp") == "$key" && -f "$dist/prerender/manifest.json" ]]; then
  echo "build $key: $dist is up to date"
  exit 0
fi

if [[ -n "$cache" && -f "$cache/$key/.vite/build-key" ]]; then
  rm -rf "$dist" && mkdir -p "$dist"
  if cp -a "$cache/$key/." "$dist/"; then
    touch "$cache/$key"
    echo "build $key: copied from $cache"
    exit 0
  fi
  echo "build $key: copying from $cache failed, building" >&2
fi

(cd frontend && npm run build --silent -- --outDir "$dist" --emptyOutDir)
(cd frontend && node scripts/prerender.mjs "$dist") < "$work/site.json"
echo "$key" > "$stamp"

if [[ -n "$cache" ]]; then
  mkdir -p "$cache"
  # Copied under a temporary name and renamed, so a build running alongside never sees half of it.
  partial=$(mktemp -d "$cache/.partial-XXXXXX")
  cp -a "$dist/." "$partial/"
  mv -T "$partial" "$cache/$key" 2>/dev/null || rm -rf "$partial"
  ls -1t "$cache" | tail -n +$((KEEP + 1)) | while read -r old; do rm -rf "${cache:?}/$old"; done
fi
